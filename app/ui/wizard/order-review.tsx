import { Text, Title } from "~/ui/typography";
import { useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import type { AddressView, BillingProfileView, CardView } from "~/domain/billing-views";
import type { EstimateView } from "~/domain/estimate";
import { Button, LinkButton } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";
import { TextInput } from "~/ui/inputs";
import { ConfirmDialog } from "./confirm-dialog";
import { CouponBox } from "./coupon-box";
import { OrderParties, OrderProblems } from "./order-details";
import { EstimateOrError } from "./order-summary";

/** What an order review's loader gives (app/server/orders/order-review.server.ts). */
export interface OrderReviewData {
  orderKey: string | null;
  couponId: string | null;
  couponError: string | null;
  problems: { step: string; message: string; to: string }[];
  estimate: EstimateView | null;
  estimateError: string | null;
  billingProfile: BillingProfileView | null;
  billingAddress: AddressView | null;
  shippingAddress: AddressView | null;
  card: Pick<CardView, "last4"> | null;
}

/**
 * The review of an order before it is placed, for the new license's Order step and the update's Review:
 * what stops it, its lines, the coupon box, the estimate, who pays and where it ships, Previous and 'Submit
 * Order', and the confirmation (a dialog the URL opens, `?confirm=1`, so it works without JavaScript). The
 * confirmation posts `intent` with the order's key and the customer's optional PO number; Submit reads `busyLabel`
 * while that post runs.
 */
export function OrderReview({
  review,
  licenseFor,
  stepTitle,
  lines,
  couponFirst = false,
  estimateCaption,
  noteCredits,
  pageUrl,
  previousTo,
  couponBox = true,
  fixedPoNumber = null,
  intent,
  busyLabel,
  confirm,
}: {
  review: OrderReviewData;
  /** Whose license: the organization it is for, or the license updated. */
  licenseFor: string;
  stepTitle: (step: string) => string;
  /** The order's own lines above the coupon box (the update's recurring line and add-ons). */
  lines?: ReactNode;
  /** The coupon box above the estimate (the update) rather than below it (a new license). */
  couponFirst?: boolean;
  estimateCaption: string;
  noteCredits?: boolean;
  /** The page's URL, with the query that picks its draft (`?customer=…`) if any. */
  pageUrl: string;
  previousTo: string;
  /** Whether the order takes a coupon here: not a quote's order, priced with the quote's own. */
  couponBox?: boolean;
  /** The PO number the order already carries (an accepted quote's): shown read-only in place of the field. */
  fixedPoNumber?: string | null;
  intent: string;
  busyLabel: string;
  /** The confirmation; its text may need the estimate, and it opens only with one when `needsEstimate`. */
  confirm: { title: string; confirmLabel: string; cancelLabel: string; text: ReactNode; needsEstimate?: boolean };
}) {
  const actionData = useActionData<{ couponError?: string; poNumberError?: string; poNumber?: string }>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const { orderKey } = review;
  const coupon = couponBox ? (
    <CouponBox couponId={review.couponId} error={actionData?.couponError ?? review.couponError} />
  ) : null;
  const estimate = (
    <EstimateOrError
      estimate={review.estimate}
      error={review.estimateError}
      caption={estimateCaption}
      noteCredits={noteCredits}
    />
  );
  const confirmOpen = searchParams.get("confirm") && orderKey && (review.estimate || !confirm.needsEstimate);

  return (
    <Stack gap="md">
      <Title order={3}>Review Order</Title>
      <Text>
        Recurring license for <strong>{licenseFor}</strong>
      </Text>
      <OrderProblems problems={review.problems} stepTitle={stepTitle} />
      {lines}
      {couponFirst ? (
        <>
          {coupon}
          {estimate}
        </>
      ) : (
        <>
          {estimate}
          {coupon}
        </>
      )}
      <OrderParties
        billingProfile={review.billingProfile}
        billingAddress={review.billingAddress}
        shippingAddress={review.shippingAddress}
        card={review.card}
      />

      <Group justify="space-between" mt="md">
        <LinkButton to={previousTo} variant="default">
          Previous
        </LinkButton>
        {orderKey ? (
          <LinkButton to={`${pageUrl}${pageUrl.includes("?") ? "&" : "?"}confirm=1`} loading={busy}>
            {busy ? busyLabel : "Submit Order"}
          </LinkButton>
        ) : (
          <Button disabled>Submit Order</Button>
        )}
      </Group>

      {confirmOpen && orderKey ? (
        <ConfirmDialog
          title={confirm.title}
          confirmLabel={confirm.confirmLabel}
          busyLabel={busyLabel}
          cancelLabel={confirm.cancelLabel}
          cancelTo={pageUrl}
          intent={intent}
          fields={{ orderKey }}
          inputs={
            fixedPoNumber ? (
              // Not posted: the server orders with the PO number it already holds.
              <TextInput
                id="po_number"
                label="PO number"
                description="The purchase order number given with the quote, printed on the invoice and shown with the license."
                defaultValue={fixedPoNumber}
                readOnly
                style={{ marginBottom: "var(--mantine-spacing-md)" }}
              />
            ) : (
              <TextInput
                id="po_number"
                name="po_number"
                label="PO number (optional)"
                description="Your purchase order number, printed on the invoice and shown with the license."
                defaultValue={actionData?.poNumber}
                error={actionData?.poNumberError}
                autoComplete="off"
                style={{ marginBottom: "var(--mantine-spacing-md)" }}
              />
            )
          }
        >
          {confirm.text}
        </ConfirmDialog>
      ) : null}
    </Stack>
  );
}
