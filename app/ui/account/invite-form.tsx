import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { ROLE_NAMES, ROLES, type Role } from "~/domain/access-policy";
import { Button } from "~/ui/button";
import { NativeSelect, TextInput } from "~/ui/inputs";
import { Alert, Card, Group, Stack } from "~/ui/layout";
import { Text } from "~/ui/typography";

/** What a refused invitation post returns: the messages, and what was typed. */
export type InvitationFormData = {
  formError?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
};

/** What a refused post of members or invitations says (a member gone, an invitation used), above the page's lists. */
export function MembershipRefusal({ actionData }: { actionData: InvitationFormData | undefined }) {
  return actionData?.formError ? (
    <Alert color="red" role="alert">
      {actionData.formError}
    </Alert>
  ) : null;
}

/** The options of these roles (every role unless named), in the table's order. */
const roleOptions = (roles: readonly Role[]) =>
  roles.map((role) => (
    <option key={role} value={role}>
      {ROLE_NAMES[role]}
    </option>
  ));

export const ROLE_OPTIONS = roleOptions(ROLES);

/**
 * An invitation: an address and a role, a plain post (the team page's Owner, an administrator's page of an
 * organization, a distributor's page of an end customer, which offers fewer roles). The link is mailed, valid 7
 * days. Nothing typed is lost on an error.
 */
export function InviteForm({
  title,
  defaultRole,
  actionData,
  roles = ROLES,
}: {
  title: string;
  defaultRole: Role;
  actionData: InvitationFormData | undefined;
  roles?: readonly Role[];
}) {
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  return (
    <Card withBorder padding="md" aria-label={title}>
      <Form method="post" noValidate>
        <AuthenticityTokenInput name="csrf" />
        <Stack gap="sm">
          <Text fw={600}>{title}</Text>
          <Text size="sm">We email them a link to join, valid for 7 days.</Text>
          <Group align="flex-start" gap="sm">
            <TextInput
              id="invite-email"
              name="email"
              type="email"
              label="Email"
              required
              defaultValue={values.email}
              error={errors.email}
              w={320}
            />
            <NativeSelect
              id="invite-role"
              name="role"
              label="Role"
              required
              defaultValue={values.role ?? defaultRole}
              error={errors.role}
              w={220}
            >
              {roles === ROLES ? ROLE_OPTIONS : roleOptions(roles)}
            </NativeSelect>
          </Group>
          <Group>
            <Button type="submit" name="intent" value="invite">
              Send invitation
            </Button>
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}
