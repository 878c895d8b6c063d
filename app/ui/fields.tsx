import { Group, List, NativeSelect, TextInput, ThemeIcon, type NativeSelectProps, type TextInputProps } from "@mantine/core";
import { useField } from "remix-validated-form";
import { COUNTRIES } from "~/domain/countries";
import { PASSWORD_REQUIREMENTS } from "~/domain/account";
import { DIAL_CODES } from "~/domain/phone";

type FieldProps = Omit<TextInputProps, "name" | "error" | "defaultValue"> & { name: string };

/**
 * A text input bound to the surrounding ValidatedForm: with JavaScript it validates on blur with the
 * form's zod schema; without it the server's field error and the submitted value come back in the HTML.
 */
export function TextField({ name, onChange, onBlur, ...props }: FieldProps) {
  const field = useField(name);
  return (
    <TextInput {...props} {...field.getInputProps<TextInputProps>({ id: name, onChange, onBlur })} name={name} error={field.error} />
  );
}

type SelectFieldProps = Omit<NativeSelectProps, "name" | "error" | "defaultValue"> & { name: string };

/** A native select (it posts without JavaScript, unlike Mantine's Select) bound to the ValidatedForm. */
export function SelectField({ name, ...props }: SelectFieldProps) {
  const field = useField(name);
  return <NativeSelect {...props} {...field.getInputProps<NativeSelectProps>({ id: name })} name={name} error={field.error} />;
}

export const COUNTRY_PLACEHOLDER = "-- Select your Country --";

/** ISO 2-letter country codes with their names (spec 000 §2 "Other inputs"). */
export function CountryField({ name, ...props }: Omit<SelectFieldProps, "data">) {
  return (
    <SelectField
      name={name}
      {...props}
      data={[{ value: "", label: COUNTRY_PLACEHOLDER }, ...COUNTRIES.map((country) => ({ value: country.code, label: country.name }))]}
    />
  );
}

/**
 * A phone number with its country dial code (US and GB first). Posts `<name>_country` and `<name>`;
 * the schema turns them into E.164.
 */
export function PhoneField({ name, label, required }: { name: string; label: string; required?: boolean }) {
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <SelectField
        name={`${name}_country`}
        label="Country code"
        data={DIAL_CODES.map((code) => ({ value: code.country, label: code.label }))}
        w={170}
      />
      <TextField name={name} label={label} type="tel" autoComplete="tel-national" required={required} style={{ flex: 1 }} />
    </Group>
  );
}

/**
 * The new password's requirements. As the user types (JavaScript), each is ticked or marked; after a
 * submit without JavaScript, the server's list of unmet ones marks them; before either, a plain list.
 */
export function PasswordChecklist({ id, password, unmet }: { id: string; password: string | null; unmet: string[] | null }) {
  const isMet = (requirement: (typeof PASSWORD_REQUIREMENTS)[number]) =>
    password !== null ? requirement.test(password) : unmet !== null ? !unmet.includes(requirement.id) : null;
  return (
    <List id={id} size="sm" spacing={2} center aria-live="polite">
      {PASSWORD_REQUIREMENTS.map((requirement) => {
        const met = isMet(requirement);
        return (
          <List.Item
            key={requirement.id}
            c={met === null ? undefined : met ? "green.9" : "red.9"}
            icon={
              <ThemeIcon size={18} radius="xl" color={met === null ? "gray.7" : met ? "green.8" : "red.8"} aria-hidden="true">
                {met === null ? "•" : met ? "✓" : "✗"}
              </ThemeIcon>
            }
          >
            {requirement.label}
            {met === null ? null : <span className="gk-visually-hidden">{met ? " (met)" : " (not met)"}</span>}
          </List.Item>
        );
      })}
    </List>
  );
}
