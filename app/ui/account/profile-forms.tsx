import { Text, Title } from "~/ui/typography";
import { useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useIsSubmitting } from "remix-validated-form";
import type { SelectOption } from "~/domain/billing-views";
import { lazyValidator } from "~/domain/lazy-validator";
import { Button } from "~/ui/button";
import { PhoneField } from "~/ui/contact-fields";
import { TextField } from "~/ui/fields";
import { Card, Stack } from "~/ui/layout";
import { PasswordChecklist } from "~/ui/password-checklist";
import { ValidatedForm } from "~/ui/validated-form";

export const profileValidator = lazyValidator(() => import("~/domain/profile").then((module) => module.profileSchema));
export const passwordValidator = lazyValidator(() =>
  import("~/domain/profile").then((module) => module.passwordChangeSchema),
);

export interface ProfileDefaults {
  firstName: string;
  lastName: string;
  company: string;
  phone_country: string;
  phone: string;
}

function SubmitButton({ formId, label, busyLabel }: { formId: string; label: string; busyLabel: string }) {
  const submitting = useIsSubmitting(formId);
  return (
    <Button
      type="submit"
      loading={submitting}
      loadingLabel={busyLabel}
      style={{ marginTop: "var(--mantine-spacing-xs)" }}
    >
      {submitting ? busyLabel : label}
    </Button>
  );
}

/** Name, company and phone of the signed-in user. */
export function ProfileForm({ defaults, dialCodes }: { defaults: ProfileDefaults; dialCodes: SelectOption[] }) {
  return (
    <Card withBorder padding="lg" radius="md" aria-labelledby="profile-title">
      <Title order={2} size="h4" id="profile-title" mb="sm">
        Profile
      </Title>
      <ValidatedForm
        id="profile"
        subaction="profile"
        validator={profileValidator}
        method="post"
        defaultValues={defaults}
        noValidate
      >
        <Stack gap="sm">
          <AuthenticityTokenInput name="csrf" />
          <TextField name="firstName" label="First name" autoComplete="given-name" required />
          <TextField name="lastName" label="Last name" autoComplete="family-name" required />
          <TextField name="company" label="Company" autoComplete="organization" required />
          <PhoneField name="phone" label="Phone" required dialCodes={dialCodes} />
          <SubmitButton formId="profile" label="Save profile" busyLabel="Saving..." />
        </Stack>
      </ValidatedForm>
    </Card>
  );
}

/**
 * Change the password: the current one, the new one (with its requirements as a live checklist) and a
 * confirmation. Without JavaScript the checklist shows what the server found unmet after a submit.
 */
export function PasswordForm({ unmetAfterSubmit }: { unmetAfterSubmit: string[] | null }) {
  const [typed, setTyped] = useState<string | null>(null);
  return (
    <Card withBorder padding="lg" radius="md" aria-labelledby="password-title">
      <Title order={2} size="h4" id="password-title" mb="sm">
        Change password
      </Title>
      <ValidatedForm
        id="password"
        subaction="password"
        validator={passwordValidator}
        method="post"
        noValidate
        resetAfterSubmit
      >
        <Stack gap="sm">
          <AuthenticityTokenInput name="csrf" />
          <TextField
            name="old_password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
          />
          <TextField
            name="new_password"
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            aria-describedby="password-requirements"
            onChange={(event) => setTyped(event.currentTarget.value)}
          />
          <Text size="sm" id="password-requirements-intro">
            Your new password needs:
          </Text>
          <PasswordChecklist
            id="password-requirements"
            unmet={typed === null ? unmetAfterSubmit : null}
            password={typed}
          />
          <TextField
            name="confirm_password"
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            required
          />
          <SubmitButton formId="password" label="Change password" busyLabel="Saving..." />
        </Stack>
      </ValidatedForm>
    </Card>
  );
}
