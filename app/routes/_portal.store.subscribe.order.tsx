import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { loadAccountBilling } from "~/server/account-billing.server";
import { subscriptionStepUrl } from "~/domain/new-subscription";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { applyCoupon, estimateForPage, orderKey, orderPlacedWith, placeOrder, removeCoupon, subscriptionWizard } from "~/server/new-subscription.server";
import { redirectWithToast } from "~/server/session.server";
import type { UserRecord } from "~/server/users.server";
import type { AddressView } from "~/ui/billing/types";
import { PageErrorBoundary } from "~/ui/page";
import { ConfirmDialog } from "~/ui/wizard/confirm-dialog";
import { EstimateOrError } from "~/ui/wizard/order-summary";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { id: draftId, data } = subscriptionWizard.load(user.id, "order");
  const [{ payment, billingProfile }, estimate] = await Promise.all([loadAccountBilling(user), estimateForPage(user, data, true)]);
  const card = payment.status === "ready" ? payment.sources.find((source) => source.id === data.paymentSourceId)?.card ?? null : null;
  return json({
    organization: data.organization,
    orderKey: orderKey(draftId, data.orderAttempt),
    couponId: data.couponId,
    ...estimate,
    billingProfile: billingProfile === "error" ? null : billingProfile,
    billingAddress: payment.status === "ready" ? payment.billingAddress : null,
    shippingAddress: payment.status === "ready" ? payment.shippingAddress : null,
    card,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, formData, intent } = await readUserForm(request);
  const orderUrl = subscriptionStepUrl("order");
  switch (intent) {
    case "apply-coupon": {
      const problem = await applyCoupon(user, String(formData.get("coupon") ?? ""));
      // An invalid coupon is removed and the input cleared, so nothing is echoed back.
      return problem ? json({ couponError: problem }, { status: 422 }) : redirect(orderUrl);
    }
    case "remove-coupon": {
      const problem = removeCoupon(user);
      return problem ? json({ couponError: problem }, { status: 422 }) : redirect(orderUrl);
    }
    case "purchase":
      return purchase(request, user, String(formData.get("orderKey") ?? ""));
    default:
      throw json({ message: "This form is not known on the order page." }, { status: 400 });
  }
}

async function purchase(request: Request, user: UserRecord, postedKey: string) {
  const placed = orderPlacedWith(user, postedKey);
  if (placed) return redirect(`/store/orders/${placed.id}`);
  const draft = subscriptionWizard.load(user.id, "order");
  // The order needs a plan, a payment source and a customer (spec 000 §5).
  if (!draft.data.paymentSourceId) {
    return redirectWithToast(request, subscriptionStepUrl("billing"), { kind: "error", message: "Please select a payment method." });
  }
  const { payment } = await loadAccountBilling(user);
  const shippingAddress = payment.status === "ready" ? (payment.shippingAddress ?? payment.billingAddress ?? undefined) : undefined;
  const job = await placeOrder(user, draft.id, draft.data, draft.data.paymentSourceId, shippingAddress);
  return redirect(`/store/orders/${job.id}`);
}

function AddressLines({ address }: { address: AddressView }) {
  const lines = [
    [address.firstName, address.lastName].filter(Boolean).join(" "),
    address.company,
    address.email,
    address.phone,
    address.line1,
    address.line2,
    [address.city, address.state, address.zip].filter(Boolean).join(", "),
    address.country,
  ].filter(Boolean);
  return (
    <>
      {lines.map((line) => (
        <Text size="sm" key={line}>
          {line}
        </Text>
      ))}
    </>
  );
}

export default function OrderStep() {
  const { organization, orderKey: key, couponId, estimate, estimateError, billingProfile, billingAddress, shippingAddress, card } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const couponError = actionData?.couponError;
  const couponForm = useRef<HTMLFormElement>(null);
  // A refused coupon is removed and its input cleared (spec 000 §4); without JavaScript the new page does it.
  useEffect(() => {
    if (actionData) couponForm.current?.reset();
  }, [actionData]);
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const placing = navigation.state !== "idle" && navigation.formData?.get("intent") === "purchase";
  const orderUrl = subscriptionStepUrl("order");

  return (
    <Stack gap="md">
      <Title order={3}>Review Order</Title>
      <Text>
        Recurring license for <strong>{organization}</strong>
      </Text>
      <EstimateOrError estimate={estimate} error={estimateError} caption="Your order" />

      <Form method="post" ref={couponForm}>
        <AuthenticityTokenInput name="csrf" />
        <Group align="flex-end" gap="xs">
          <TextInput
            name="coupon"
            label="I have a coupon:"
            id="coupon"
            defaultValue={couponId ?? ""}
            key={couponId ?? "none"}
            readOnly={Boolean(couponId)}
            error={couponError}
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

      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <Card withBorder padding="md" component="section" aria-label="Billing info">
          <Text fw={600} mb={4}>
            Billing info
          </Text>
          {billingProfile ? <AddressLines address={{ ...billingProfile, ...(billingAddress ?? {}) }} /> : <Text size="sm">Not available</Text>}
        </Card>
        <Card withBorder padding="md" component="section" aria-label="Shipping address">
          <Text fw={600} mb={4}>
            Shipping address
          </Text>
          {shippingAddress ? <AddressLines address={shippingAddress} /> : <Text size="sm">Same as billing address.</Text>}
        </Card>
        <Card withBorder padding="md" component="section" aria-label="Payment method">
          <Text fw={600} mb={4}>
            Payment method
          </Text>
          {card ? (
            <>
              <Text size="sm">Card</Text>
              <Text size="sm" data-testid="masked-card">
                **** **** **** {card.last4}
              </Text>
            </>
          ) : (
            <Text size="sm">No card selected</Text>
          )}
        </Card>
      </SimpleGrid>

      <Group justify="space-between" mt="md">
        <Button component={Link} to={subscriptionStepUrl("billing")} variant="default">
          Previous
        </Button>
        <Button component={Link} to={`${orderUrl}?confirm=1`} loading={placing} disabled={!estimate || !card}>
          {placing ? "Creating Recurring License..." : "Submit Order"}
        </Button>
      </Group>

      {searchParams.get("confirm") ? (
        <ConfirmDialog
          title="Place your order."
          confirmLabel="Purchase"
          busyLabel="Creating Recurring License..."
          cancelLabel="Continue Editing"
          cancelTo={orderUrl}
          intent="purchase"
          fields={{ orderKey: key }}
        >
          This will place your order and create a new recurring license for GateKeeper Hub.
        </ConfirmDialog>
      ) : null}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
