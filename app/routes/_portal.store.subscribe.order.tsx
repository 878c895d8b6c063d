import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { STEP_TITLES, subscriptionStepUrl } from "~/domain/subscription-steps";
import { poNumberOf } from "~/domain/purchase-orders";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { redirectWithToast } from "~/server/accounts/session.server";
import { couponIntent } from "~/server/orders/coupons.server";
import { orderReview, purchase } from "~/server/orders/new-subscription-order.server";
import { subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { PageErrorBoundary } from "~/ui/page";
import { OrderReview } from "~/ui/wizard/order-review";

const ORDER_URL = subscriptionStepUrl("order");

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await orderReview(await requireMember(request, "purchase")));
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readMemberForm(request, "purchase");
  const coupon = await couponIntent(form.member, subscriptionWizard, form, ORDER_URL);
  if (coupon) return coupon;
  if (form.intent !== "purchase")
    return json({ couponError: "This form is not known on the order page." }, { status: 400 });
  const po = poNumberOf(form.formData.get("po_number"));
  if (!po.ok) return json(po.refusal, { status: 400 });
  const result = await purchase(form.member, String(form.formData.get("orderKey") ?? ""), po.poNumber);
  if ("jobId" in result) return redirect(`/store/orders/${result.jobId}`);
  if ("redirectTo" in result) return redirect(result.redirectTo);
  return redirectWithToast(request, ORDER_URL, { kind: "error", message: result.refused });
}

export default function OrderStep() {
  const { organization, ...review } = useLoaderData<typeof loader>();
  return (
    <OrderReview
      review={review}
      licenseFor={organization}
      stepTitle={(step) => STEP_TITLES[step as keyof typeof STEP_TITLES]}
      estimateCaption="Your order"
      pageUrl={ORDER_URL}
      previousTo={subscriptionStepUrl("billing")}
      intent="purchase"
      busyLabel="Creating Recurring License..."
      confirm={{
        title: "Place your order.",
        confirmLabel: "Purchase",
        cancelLabel: "Continue Editing",
        text: "This will place your order and create a new recurring license for GateKeeper Hub.",
      }}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
