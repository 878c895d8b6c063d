import type { InputBaseProps, TextInputProps } from "@mantine/core";
import { ComboboxChevron } from "@mantine-parts/components/Combobox/ComboboxChevron/ComboboxChevron.mjs";
import { InputBase } from "@mantine-parts/components/InputBase/InputBase.mjs";
import { TextInput } from "@mantine-parts/components/TextInput/TextInput.mjs";
import type { SelectHTMLAttributes } from "react";
import { useField } from "remix-validated-form";
import type { SelectOption } from "~/domain/billing-views";

type FieldProps = Omit<TextInputProps, "name" | "error" | "defaultValue"> & { name: string };

/**
 * A text input bound to the surrounding ValidatedForm: with JavaScript it validates on blur with the
 * form's zod schema; without it the server's field error and the submitted value come back in the HTML.
 * The id is the name unless given (two forms on one page may share field names).
 */
export function TextField({ name, id = name, onChange, onBlur, ...props }: FieldProps) {
  const field = useField(name);
  return (
    <TextInput {...props} {...field.getInputProps<TextInputProps>({ id, onChange, onBlur })} name={name} error={field.error} />
  );
}

/** A select element's own attributes; `size` is Mantine's. */
type SelectAttributes = Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "defaultValue" | "size">;

export type SelectFieldProps = Omit<InputBaseProps, "error"> & SelectAttributes & { name: string; data: SelectOption[] };

/**
 * A native select (it posts without JavaScript, unlike Mantine's Select) bound to the ValidatedForm. Drawn as
 * Mantine's NativeSelect draws it, from InputBase and the chevron: NativeSelect's module also loads Combobox,
 * Checkbox and ScrollArea (its bare imports), ≈ 4 kB gzip a page never uses (decisions 062 and 105).
 */
export function SelectField({ name, id = name, onChange, data, ...props }: SelectFieldProps) {
  const field = useField(name);
  return (
    <InputBase
      component="select"
      __staticSelector="NativeSelect"
      pointer
      rightSection={<ComboboxChevron error={field.error} />}
      rightSectionPointerEvents="none"
      {...props}
      {...field.getInputProps<SelectAttributes>({ id, onChange })}
      name={name}
      error={field.error}
    >
      {data.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </InputBase>
  );
}
