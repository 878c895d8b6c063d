import type { SelectOption } from "~/domain/billing-views";
import { Group } from "~/ui/layout";
import { SelectField, TextField, type SelectFieldProps } from "./fields";

// The countries and dial codes come from the page's loader (app/server/account-billing/contact-options.server.ts), so that
// no page ships the country list or libphonenumber's metadata; the phone rules load with the form's
// schema, on first use (decision 105).

export const COUNTRY_PLACEHOLDER = "-- Select your Country --";

/** ISO 2-letter country codes with their names. */
export function CountryField({
  name,
  countries,
  ...props
}: Omit<SelectFieldProps, "data"> & { countries: SelectOption[] }) {
  return <SelectField name={name} {...props} data={[{ value: "", label: COUNTRY_PLACEHOLDER }, ...countries]} />;
}

/**
 * A phone number with its country dial code (US and GB first). Posts `<name>_country` and `<name>`;
 * the schema turns them into E.164. The ids are the names unless `id` is given.
 */
export function PhoneField({
  name,
  id = name,
  label,
  required,
  dialCodes,
}: {
  name: string;
  id?: string;
  label: string;
  required?: boolean;
  dialCodes: SelectOption[];
}) {
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <SelectField name={`${name}_country`} id={`${id}_country`} label="Country code" data={dialCodes} w={170} />
      <TextField
        name={name}
        id={id}
        label={label}
        type="tel"
        autoComplete="tel-national"
        required={required}
        style={{ flex: 1 }}
      />
    </Group>
  );
}
