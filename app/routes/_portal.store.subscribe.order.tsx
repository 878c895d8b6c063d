import { Text, Title } from "~/ui/typography";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { STEP_TITLES, subscriptionStepUrl } from "~/domain/subscription-steps";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { redirectWithToast } from "~/server/session.server";
import { couponIntent } from "~/server/wizards/coupons.server";
import { orderReview, purchase } from "~/server/wizards/new-subscription-order.server";
import { subscriptionWizard } from "~/server/wizards/new-subscription.server";
import { Button, LinkButton } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { ConfirmDialog } from "~/ui/wizard/confirm-dialog";
import { CouponBox } from "~/ui/wizard/coupon-box";
import { EstimateOrError } from "~/ui/wizard/order-summary";
import { OrderParties, OrderProblems } from "~/ui/wizard/order-details";

const ORDER_URL = subscriptionStepUrl("order");

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await orderReview(await requireUser(request)));
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readUserForm(request);
  const coupon = await couponIntent(form.user, subscriptionWizard, form, ORDER_URL);
  if (coupon) return coupon;
  if (form.intent !== "purchase")
    return json({ couponError: "This form is not known on the order page." }, { status: 400 });
  const result = await purchase(form.user, String(form.formData.get("orderKey") ?? ""));
  if ("jobId" in result) return redirect(`/store/orders/${result.jobId}`);
  if ("redirectTo" in result) return redirect(result.redirectTo);
  return redirectWithToast(request, ORDER_URL, { kind: "error", message: result.refused });
}

export default function OrderStep() {
  const {
    organization,
    orderKey,
    couponId,
    couponError,
    problems,
    estimate,
    estimateError,
    billingProfile,
    billingAddress,
    shippingAddress,
    card,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const placing = navigation.state !== "idle" && navigation.formData?.get("intent") === "purchase";

  return (
    <Stack gap="md">
      <Title order={3}>Review Order</Title>
      <Text>
        Recurring license for <strong>{organization}</strong>
      </Text>
      <OrderProblems problems={problems} stepTitle={(step) => STEP_TITLES[step as keyof typeof STEP_TITLES]} />
      <EstimateOrError estimate={estimate} error={estimateError} caption="Your order" />

      <CouponBox couponId={couponId} error={actionData?.couponError ?? couponError} />

      <OrderParties
        billingProfile={billingProfile}
        billingAddress={billingAddress}
        shippingAddress={shippingAddress}
        card={card}
      />

      <Group justify="space-between" mt="md">
        <LinkButton to={subscriptionStepUrl("billing")} variant="default">
          Previous
        </LinkButton>
        {orderKey ? (
          <LinkButton to={`${ORDER_URL}?confirm=1`} loading={placing}>
            {placing ? "Creating Recurring License..." : "Submit Order"}
          </LinkButton>
        ) : (
          <Button disabled>Submit Order</Button>
        )}
      </Group>

      {searchParams.get("confirm") && orderKey ? (
        <ConfirmDialog
          title="Place your order."
          confirmLabel="Purchase"
          busyLabel="Creating Recurring License..."
          cancelLabel="Continue Editing"
          cancelTo={ORDER_URL}
          intent="purchase"
          fields={{ orderKey }}
        >
          This will place your order and create a new recurring license for GateKeeper Hub.
        </ConfirmDialog>
      ) : null}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
