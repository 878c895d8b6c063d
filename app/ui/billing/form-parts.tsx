import { Text } from "~/ui/typography";
import { useActionData } from "@remix-run/react";
import { useEffect, useRef, useState, type RefObject } from "react";
import { useField, useIsSubmitting, type Validator } from "remix-validated-form";
import { Button } from "~/ui/button";
import { Alert, Group, Stack } from "~/ui/layout";
import { CountryField, PhoneField } from "../contact-fields";
import { TextField } from "../fields";
import type { FormFailure, SelectOption } from "~/domain/billing-views";
import { Checkbox } from "../inputs";

/** Field ids carry the form's id: the drawers sit on /account beside the profile form, whose names overlap. */
export const fieldId = (formId: string, name: string) => `${formId}-${name}`;

/** The provider's refusal of the whole form, from the drawer's action. */
export function FormFailureAlert() {
  const failure = useActionData<FormFailure>();
  if (!failure?.formError) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {failure.formError}
    </Alert>
  );
}

export function CheckboxField({ formId, name, label }: { formId: string; name: string; label: string }) {
  const field = useField(name);
  return (
    <Checkbox {...field.getInputProps({ type: "checkbox", id: fieldId(formId, name) })} name={name} label={label} />
  );
}

/** First and last name, side by side. */
export function NameFields({ formId }: { formId: string }) {
  return (
    <Group grow align="flex-start">
      <TextField
        id={fieldId(formId, "first_name")}
        name="first_name"
        label="First name"
        autoComplete="given-name"
        required
      />
      <TextField
        id={fieldId(formId, "last_name")}
        name="last_name"
        label="Last name"
        autoComplete="family-name"
        required
      />
    </Group>
  );
}

/** Email, phone and company; required in the billing profile, optional on a shipping address. */
export function ContactFields({
  formId,
  required,
  dialCodes,
}: {
  formId: string;
  required: boolean;
  dialCodes: SelectOption[];
}) {
  return (
    <>
      <Group grow align="flex-start">
        <TextField
          id={fieldId(formId, "email")}
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required={required}
        />
        <TextField
          id={fieldId(formId, "company")}
          name="company"
          label="Company"
          autoComplete="organization"
          required={required}
        />
      </Group>
      <PhoneField id={fieldId(formId, "phone")} name="phone" label="Phone" required={required} dialCodes={dialCodes} />
    </>
  );
}

/**
 * Street, town, state, zip and country. The card form names them address_line1 and so on, the billing and shipping forms line1 and so on: `prefix` says which.
 */
export function AddressFields({
  formId,
  prefix = "",
  countries,
}: {
  formId: string;
  prefix?: "" | "address_";
  countries: SelectOption[];
}) {
  const field = (name: string) => ({ id: fieldId(formId, `${prefix}${name}`), name: `${prefix}${name}` });
  return (
    <>
      <TextField {...field("line1")} label="Address line 1" autoComplete="address-line1" required />
      <TextField {...field("line2")} label="Address line 2" autoComplete="address-line2" />
      <Group grow align="flex-start">
        <TextField {...field("city")} label="City" autoComplete="address-level2" required />
        <TextField {...field("state")} label="State" autoComplete="address-level1" required />
        <TextField {...field("zip")} label="Zip" autoComplete="postal-code" required />
      </Group>
      <CountryField {...field("country")} label="Country" autoComplete="country" required countries={countries} />
    </>
  );
}

export const FIX_ERRORS = "Please fix the errors to save changes.";

/**
 * The form's fields as the user set them, or (`as: "served"`) as the page was served: the default properties keep
 * the server's values, so fields typed into before the scripts arrived count as changed. Hidden fields are the
 * page's, not the user's.
 */
function fieldValues(form: HTMLFormElement, as: "typed" | "served" = "typed"): string {
  const served = as === "served";
  const fields = [...form.elements].flatMap((element) => {
    if (!(
      element instanceof HTMLInputElement ||
      element instanceof HTMLSelectElement ||
      element instanceof HTMLTextAreaElement
    ))
      return [];
    if (element.type === "hidden" || !element.name) return [];
    if (element instanceof HTMLSelectElement) {
      const options = [...element.options];
      const value = served ? (options.find((option) => option.defaultSelected) ?? options[0])?.value : element.value;
      return [[element.name, value ?? ""]];
    }
    if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio"))
      return [[element.name, String(served ? element.defaultChecked : element.checked)]];
    return [[element.name, served ? element.defaultValue : element.value]];
  });
  return JSON.stringify(fields);
}

type Readiness = "before-javascript" | "unchanged" | "invalid" | "ready";

/**
 * Whether the form is changed and valid, checked with its validator on every input. Until JavaScript
 * runs it is "before-javascript", so a browser without it gets an enabled button (the server validates).
 * `ignoreCard`: Stripe's card element is not a form field; its own errors show in it.
 */
function useReadiness(
  button: RefObject<HTMLButtonElement>,
  validator: Validator<Record<string, unknown>>,
  ignoreCard: boolean,
): Readiness {
  const [readiness, setReadiness] = useState<Readiness>("before-javascript");
  useEffect(() => {
    const form = button.current?.form;
    if (!form) return;
    const initial = fieldValues(form, "served");
    let latest = 0;
    const check = async () => {
      const run = (latest += 1);
      if (fieldValues(form) === initial) return setReadiness("unchanged");
      const result = await validator.validate(new FormData(form));
      if (run !== latest) return;
      const errors = Object.keys(result.error?.fieldErrors ?? {}).filter((field) => !(ignoreCard && field === "card"));
      setReadiness(errors.length ? "invalid" : "ready");
    };
    // A check that cannot run leaves the button enabled: the server validates the post, as without JavaScript.
    const recheck = () => {
      check().catch(() => setReadiness("ready"));
    };
    recheck();
    form.addEventListener("input", recheck);
    form.addEventListener("change", recheck);
    return () => {
      form.removeEventListener("input", recheck);
      form.removeEventListener("change", recheck);
    };
  }, [button, validator, ignoreCard]);
  return readiness;
}

/**
 * The drawer's save button: with JavaScript disabled while the form is unchanged or invalid, with the
 * reason written under it; 'Saving...' while it saves. Without JavaScript it stays enabled.
 */
export function SaveButton({
  formId,
  label,
  validator,
  unchangedHint,
  ignoreCard = false,
}: {
  formId: string;
  label: string;
  validator: Validator<Record<string, unknown>>;
  unchangedHint: string;
  ignoreCard?: boolean;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const readiness = useReadiness(button, validator, ignoreCard);
  const submitting = useIsSubmitting(formId);
  const hint = readiness === "unchanged" ? unchangedHint : readiness === "invalid" ? FIX_ERRORS : null;
  const hintId = `${formId}-save-hint`;
  return (
    <Stack gap={4} align="flex-start">
      <Button
        ref={button}
        type="submit"
        disabled={submitting || hint !== null}
        aria-describedby={hint ? hintId : undefined}
      >
        {submitting ? "Saving..." : label}
      </Button>
      {hint ? (
        <Text size="sm" id={hintId}>
          {hint}
        </Text>
      ) : null}
    </Stack>
  );
}
