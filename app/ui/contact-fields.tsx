import { Group } from "@mantine-parts/components/Group/Group.mjs";
import { COUNTRIES } from "~/domain/countries";
import { DIAL_CODES } from "~/domain/phone";
import { SelectField, TextField, type SelectFieldProps } from "./fields";

// Kept apart from fields.tsx so that pages without addresses or phones (the login page) do not ship
// the country list and libphonenumber's metadata.

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
 * the schema turns them into E.164. The ids are the names unless `id` is given.
 */
export function PhoneField({ name, id = name, label, required }: { name: string; id?: string; label: string; required?: boolean }) {
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <SelectField
        name={`${name}_country`}
        id={`${id}_country`}
        label="Country code"
        data={DIAL_CODES.map((code) => ({ value: code.country, label: code.label }))}
        w={170}
      />
      <TextField name={name} id={id} label={label} type="tel" autoComplete="tel-national" required={required} style={{ flex: 1 }} />
    </Group>
  );
}
