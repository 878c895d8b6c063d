import { Text } from "~/ui/typography";
import { Form, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Validator } from "remix-validated-form";
import { Button } from "~/ui/button";
import { Stack } from "~/ui/layout";
import { RouteDrawer } from "../route-dialogs";
import { AddressFields, ContactFields, FormFailureAlert, NameFields, SaveButton } from "./form-parts";
import type {
  AddressFormDefaults,
  BillingProfileDrawerData,
  ContactOptions,
  ShippingDrawerData,
} from "~/domain/billing-views";
import { billingProfileValidator, shippingAddressValidator } from "~/domain/billing-validators";
import { ValidatedForm } from "~/ui/validated-form";
import { TextField } from "../fields";

/**
 * A name, contact details and an address: the billing profile's and the shipping address's form (`children`: the
 * fields one of them has besides).
 */
function AddressForm({
  formId,
  validator,
  defaults,
  contactRequired,
  saveLabel,
  options,
  children,
}: {
  formId: string;
  validator: Validator<Record<string, unknown>>;
  defaults: AddressFormDefaults;
  contactRequired: boolean;
  saveLabel: string;
  options: ContactOptions;
  children?: ReactNode;
}) {
  return (
    <ValidatedForm id={formId} validator={validator} method="post" defaultValues={defaults} noValidate>
      <Stack gap="sm">
        <AuthenticityTokenInput name="csrf" />
        <FormFailureAlert />
        <NameFields formId={formId} />
        <ContactFields formId={formId} required={contactRequired} dialCodes={options.dialCodes} />
        <AddressFields formId={formId} countries={options.countries} />
        {children}
        <SaveButton formId={formId} label={saveLabel} validator={validator} unchangedHint="Change a field to save." />
      </Stack>
    </ValidatedForm>
  );
}

/** 'Update Billing Profile', or 'Error fetching billing profile.' when the customer could not be read. */
export function BillingProfileDrawer() {
  const { closeTo, defaults, ...options } = useLoaderData<BillingProfileDrawerData>();
  let body: ReactNode = (
    <Text c="red.9" fw={600} role="alert">
      Error fetching billing profile.
    </Text>
  );
  if (defaults) {
    body = (
      <AddressForm
        formId="billing-profile"
        validator={billingProfileValidator}
        defaults={defaults}
        contactRequired
        saveLabel="Save Billing Profile"
        options={options}
      >
        <TextField
          id="billing-profile-vat_number"
          name="vat_number"
          label="VAT number"
          description="For a business in the EU, the United Kingdom, Switzerland or Norway, e.g. DE123456789. It is checked with the tax register when you save, and printed on your invoices."
          autoComplete="off"
        />
      </AddressForm>
    );
  }
  return (
    <RouteDrawer title="Update Billing Profile" closeTo={closeTo}>
      {body}
    </RouteDrawer>
  );
}

/** 'Update Shipping Address', and the way back to 'Same as billing address' once one is saved. */
export function ShippingDrawer() {
  const { closeTo, defaults, hasShippingAddress, ...options } = useLoaderData<ShippingDrawerData>();
  return (
    <RouteDrawer title="Update Shipping Address" closeTo={closeTo}>
      <Stack gap="lg">
        <AddressForm
          formId="shipping-address"
          validator={shippingAddressValidator}
          defaults={defaults}
          contactRequired={false}
          saveLabel="Save Shipping Address"
          options={options}
        />
        {hasShippingAddress ? (
          <>
            <hr className="gk-divider" />
            <Form method="post" preventScrollReset>
              <AuthenticityTokenInput name="csrf" />
              <Stack gap={4} align="flex-start">
                <Text size="sm">Or ship to the billing address, as before:</Text>
                <Button type="submit" name="intent" value="clear" variant="default">
                  Use billing address
                </Button>
              </Stack>
            </Form>
          </>
        ) : null}
      </Stack>
    </RouteDrawer>
  );
}
