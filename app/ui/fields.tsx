import { useField } from "remix-validated-form";
import { useChangeBeforeHydration } from "./change-before-hydration";
import type { SelectOption } from "~/domain/billing-views";
import { NativeSelect, TextInput, type NativeSelectProps, type TextInputProps } from "./inputs";

type FieldProps = Omit<TextInputProps, "name" | "error" | "defaultValue"> & { name: string };

/**
 * A text input bound to the surrounding ValidatedForm: with JavaScript it validates on blur with the
 * form's zod schema; without it the server's field error and the submitted value come back in the HTML.
 * The id is the name unless given (two forms on one page may share field names).
 */
export function TextField({ name, id = name, onChange, onBlur, ...props }: FieldProps) {
  const field = useField(name);
  const ref = useChangeBeforeHydration<HTMLInputElement>(onChange);
  return (
    <TextInput
      {...props}
      {...field.getInputProps({ id, onChange, onBlur })}
      ref={ref}
      name={name}
      error={field.error}
    />
  );
}

export type SelectFieldProps = Omit<NativeSelectProps, "name" | "id" | "error" | "defaultValue" | "children"> & {
  name: string;
  id?: string;
  data: SelectOption[];
};

/** A native select (it posts without JavaScript, unlike Mantine's Select) bound to the ValidatedForm. */
export function SelectField({ name, id = name, onChange, data, ...props }: SelectFieldProps) {
  const field = useField(name);
  return (
    <NativeSelect {...props} {...field.getInputProps({ id, onChange })} name={name} error={field.error}>
      {data.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </NativeSelect>
  );
}
