import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { quotedName } from "~/domain/names";
import { QUOTE_KEEPS_ITS_COUPON, quoteUrls } from "~/domain/quotes";
import { Button } from "~/ui/button";
import { Stack } from "~/ui/layout";
import { Link } from "~/ui/link";
import { Text } from "~/ui/typography";
import { STEP_TITLES } from "~/domain/subscription-steps";
import { poNumberOf } from "~/domain/purchase-orders";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { redirectWithToast } from "~/server/accounts/session.server";
import { couponIntent, isCouponIntent } from "~/server/orders/coupons.server";
import { orderReview, purchase } from "~/server/orders/new-subscription-order.server";
import { purchaseRight, subscriptionWizardOf } from "~/server/orders/new-subscription-wizard.server";
import { PageErrorBoundary } from "~/ui/page";
import { OrderReview } from "~/ui/wizard/order-review";

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, purchaseRight(request));
  const order = await subscriptionWizardOf(member, request);
  const { quote } = order;
  return json({
    pageUrl: order.wizard.urlOf("order"),
    previousTo: order.wizard.urlOf("billing"),
    quote: quote && { number: quote.number, poNumber: quote.poNumber, pageUrl: quoteUrls.page(quote.quoteId) },
    ...(await orderReview(member, order)),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readMemberForm(request, purchaseRight(request));
  const order = await subscriptionWizardOf(form.member, request);
  const orderUrl = order.wizard.urlOf("order");
  const { quote } = order;
  // A quote's order keeps the quote's coupon: its page has no coupon box, and a coupon's post changes nothing.
  if (quote && isCouponIntent(form.intent))
    return redirectWithToast(request, orderUrl, { kind: "error", message: QUOTE_KEEPS_ITS_COUPON });
  const coupon = quote ? null : await couponIntent(form.member, order.wizard, form, orderUrl);
  if (coupon) return coupon;
  if (form.intent !== "purchase")
    return json({ couponError: "This form is not known on the order page." }, { status: 400 });
  // A quote that carries a PO number is ordered with it (shown read-only): a posted one is not even read.
  const po = poNumberOf(quote?.poNumber ? null : form.formData.get("po_number"));
  if (!po.ok) return json(po.refusal, { status: 400 });
  const result = await purchase(form.member, String(form.formData.get("orderKey") ?? ""), order, po.poNumber);
  if ("jobId" in result) return redirect(`/store/orders/${result.jobId}`);
  if ("redirectTo" in result) return redirect(result.redirectTo);
  return redirectWithToast(request, orderUrl, { kind: "error", message: result.refused });
}

export default function OrderStep() {
  const { organization, pageUrl, previousTo, quote, ...review } = useLoaderData<typeof loader>();
  return (
    <>
      {quote ? <QuoteOrderNote quote={quote} placeable={review.orderKey !== null} /> : null}
      <OrderReview
        review={review}
        licenseFor={organization}
        stepTitle={(step) => STEP_TITLES[step as keyof typeof STEP_TITLES]}
        estimateCaption="Your order"
        pageUrl={pageUrl}
        previousTo={previousTo}
        couponBox={!quote}
        fixedPoNumber={quote?.poNumber}
        intent="purchase"
        busyLabel="Creating Recurring License..."
        confirm={{
          title: "Place your order.",
          confirmLabel: "Purchase",
          cancelLabel: "Continue Editing",
          text: "This will place your order and create a new recurring license for GateKeeper Hub.",
        }}
      />
    </>
  );
}

/**
 * What a quote's order says above it: the quote it is, its lines locked (and its PO number), and, while it cannot be
 * placed (its prices changed), 'Copy into a new quote', the quote page's own form.
 */
function QuoteOrderNote({
  quote,
  placeable,
}: {
  quote: { number: string; poNumber: string | null; pageUrl: string };
  placeable: boolean;
}) {
  return (
    <Stack gap="xs" mb="md">
      <Text>
        You are ordering quote <Link to={quote.pageUrl}>{quote.number}</Link>: its lines are those quoted and cannot be
        changed.{quote.poNumber ? ` PO number ${quotedName(quote.poNumber)} goes with the order.` : ""}
      </Text>
      {placeable ? null : (
        <Form method="post" action={quote.pageUrl}>
          <AuthenticityTokenInput name="csrf" />
          <Button type="submit" name="intent" value="copy" variant="default">
            Copy into a new quote
          </Button>
        </Form>
      )}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
