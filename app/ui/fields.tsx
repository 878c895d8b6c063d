import { TextInput, type TextInputProps } from "@mantine/core";
import { useField } from "remix-validated-form";

type FieldProps = Omit<TextInputProps, "name" | "error" | "defaultValue"> & { name: string };

/**
 * A text input bound to the surrounding ValidatedForm: with JavaScript it validates on blur with the
 * form's zod schema; without it the server's field error and the submitted value come back in the HTML.
 */
export function TextField({ name, ...props }: FieldProps) {
  const field = useField(name);
  return <TextInput {...props} {...field.getInputProps<TextInputProps>({ id: name })} name={name} error={field.error} />;
}
