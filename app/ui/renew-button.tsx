import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Button } from "~/ui/button";

/** 'Renew' for a license whose subscription ended: a form, since renewing writes the new license's wizard. */
export function RenewButton({ to, label, variant }: { to: string; label: string; variant?: "default" }) {
  return (
    <Form method="post" action={to}>
      <AuthenticityTokenInput name="csrf" />
      <Button type="submit" size="xs" variant={variant} aria-label={label}>
        Renew
      </Button>
    </Form>
  );
}
