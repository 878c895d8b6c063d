import { Text } from "~/ui/typography";
import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Button, LinkButton } from "~/ui/button";
import { Group } from "~/ui/layout";
import { RouteModal } from "../route-dialogs";

/**
 * A confirmation rendered open by the server (the URL says it is open), so it works without JavaScript:
 * confirming posts a form, going back is a link to the page without the dialog.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  cancelLabel,
  cancelTo,
  intent,
  fields = {},
  inputs,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  cancelLabel: string;
  cancelTo: string;
  intent: string;
  /** Hidden fields posted with the confirmation (e.g. the order's idempotency key). */
  fields?: Record<string, string>;
  /** Fields the person fills in with the confirmation (an order's PO number). */
  inputs?: ReactNode;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  return (
    <RouteModal title={title} closeTo={cancelTo}>
      <Text mb="lg">{children}</Text>
      <Form method="post">
        <AuthenticityTokenInput name="csrf" />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {inputs}
        <Group justify="flex-end">
          <LinkButton to={cancelTo} variant="default" replace>
            {cancelLabel}
          </LinkButton>
          <Button type="submit" name="intent" value={intent} loading={busy} loadingLabel={busyLabel}>
            {confirmLabel}
          </Button>
        </Group>
      </Form>
    </RouteModal>
  );
}
