import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { SelectOption } from "~/domain/billing-views";
import { Button } from "~/ui/button";
import { COUNTRY_PLACEHOLDER } from "~/ui/contact-fields";
import { NativeSelect, TextInput } from "~/ui/inputs";
import { Card, Group, Stack } from "~/ui/layout";
import { Link } from "~/ui/link";
import { ANCHOR_CLASS } from "~/ui/plain-parts";
import { Text } from "~/ui/typography";

/** What a refused record post returns: each field's message, and what was typed. */
export type RecordFormData = { fieldErrors?: Record<string, string>; values?: Record<string, string> };

const FIELDS: { name: string; label: string; required?: boolean; type?: string; w?: number }[] = [
  { name: "name", label: "Company name", required: true, w: 420 },
  { name: "line1", label: "Address line 1", w: 420 },
  { name: "line2", label: "Address line 2", w: 420 },
  { name: "city", label: "City", w: 260 },
  { name: "state", label: "State or region", w: 260 },
  { name: "zip", label: "Postal code", w: 200 },
];

/**
 * An end customer's record (its distributor's form): the company's name, country and address, and its technical
 * contact. A plain post: without JavaScript a refusal comes back with every message at its field and nothing
 * typed lost.
 */
export function CustomerRecordForm({
  values,
  actionData,
  countries,
  submitLabel,
  cancelTo,
}: {
  values: Record<string, string>;
  actionData: RecordFormData | undefined;
  countries: SelectOption[];
  submitLabel: string;
  cancelTo: string;
}) {
  const shown = actionData?.values ?? values;
  const errors = actionData?.fieldErrors ?? {};
  return (
    <Card withBorder padding="md" aria-label="Customer record">
      <Form method="post" noValidate>
        <AuthenticityTokenInput name="csrf" />
        <Stack gap="sm">
          <Text size="sm">Only the company name is required.</Text>
          {FIELDS.map((field) => (
            <TextInput
              key={field.name}
              id={`customer-${field.name}`}
              name={field.name}
              label={field.label}
              required={field.required}
              defaultValue={shown[field.name]}
              error={errors[field.name]}
              w={field.w}
            />
          ))}
          <NativeSelect
            id="customer-country"
            name="country"
            label="Country"
            defaultValue={shown.country}
            error={errors.country}
            w={320}
          >
            <option value="">{COUNTRY_PLACEHOLDER}</option>
            {countries.map((country) => (
              <option key={country.value} value={country.value}>
                {country.label}
              </option>
            ))}
          </NativeSelect>
          <Text fw={600} mt="sm">
            The customer&apos;s technical contact
          </Text>
          <TextInput
            id="customer-contact-name"
            name="contactName"
            label="Name"
            defaultValue={shown.contactName}
            error={errors.contactName}
            w={320}
          />
          <TextInput
            id="customer-contact-email"
            name="contactEmail"
            type="email"
            label="Email"
            defaultValue={shown.contactEmail}
            error={errors.contactEmail}
            w={320}
          />
          <Group gap="md">
            <Button type="submit">{submitLabel}</Button>
            <Link className={ANCHOR_CLASS} to={cancelTo}>
              Cancel
            </Link>
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}
