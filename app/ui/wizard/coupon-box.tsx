import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Button } from "~/ui/button";
import { Group } from "~/ui/layout";
import { TextInput } from "../inputs";

/**
 * The coupon box of every order page: 'I have a coupon:' with Apply and Remove.
 * Apply is disabled while a coupon is set; a refused code is removed and the input cleared, with the
 * reason next to the field. The page's action handles the intents apply-coupon and remove-coupon.
 */
export function CouponBox({ couponId, error }: { couponId: string | null; error: string | null | undefined }) {
  return (
    // Keyed by what the server holds, so a refused code leaves an empty input with or without JavaScript.
    <Form method="post" key={`${couponId ?? "none"}-${error ?? ""}`}>
      <AuthenticityTokenInput name="csrf" />
      <Group align="flex-end" gap="xs">
        <TextInput
          name="coupon"
          label="I have a coupon:"
          id="coupon"
          defaultValue={couponId ?? ""}
          readOnly={Boolean(couponId)}
          error={error}
          w={260}
        />
        <Button type="submit" name="intent" value="apply-coupon" variant="default" disabled={Boolean(couponId)}>
          Apply
        </Button>
        <Button type="submit" name="intent" value="remove-coupon" variant="subtle">
          Remove
        </Button>
      </Group>
    </Form>
  );
}
