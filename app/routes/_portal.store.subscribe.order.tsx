import { Alert } from "@mantine-parts/components/Alert/Alert.mjs";
import { Anchor } from "@mantine-parts/components/Anchor/Anchor.mjs";
import { Button } from "@mantine-parts/components/Button/Button.mjs";
import { Card } from "@mantine-parts/components/Card/Card.mjs";
import { Group } from "@mantine-parts/components/Group/Group.mjs";
import { List } from "@mantine-parts/components/List/List.mjs";
import { SimpleGrid } from "@mantine-parts/components/SimpleGrid/SimpleGrid.mjs";
import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { Text } from "@mantine-parts/components/Text/Text.mjs";
import { Title } from "@mantine-parts/components/Title/Title.mjs";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { STEP_TITLES, subscriptionStepUrl } from "~/domain/new-subscription";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { redirectWithToast } from "~/server/session.server";
import { applyCoupon, removeCoupon } from "~/server/wizards/coupons.server";
import { orderReview, purchase } from "~/server/wizards/new-subscription-order.server";
import { subscriptionWizard } from "~/server/wizards/new-subscription.server";
import { PageErrorBoundary } from "~/ui/page";
import { ConfirmDialog } from "~/ui/wizard/confirm-dialog";
import { CouponBox } from "~/ui/wizard/coupon-box";
import { EstimateOrError } from "~/ui/wizard/order-summary";
import { AddressLines } from "~/ui/billing/address-panels";

const ORDER_URL = subscriptionStepUrl("order");

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await orderReview(await requireUser(request)));
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, formData, intent } = await readUserForm(request);
  switch (intent) {
    case "apply-coupon": {
      const problem = await applyCoupon(user, subscriptionWizard, String(formData.get("coupon") ?? ""));
      return problem ? json({ couponError: problem }, { status: 422 }) : redirect(ORDER_URL);
    }
    case "remove-coupon": {
      const problem = removeCoupon(user, subscriptionWizard);
      return problem ? json({ couponError: problem }, { status: 422 }) : redirect(ORDER_URL);
    }
    case "purchase": {
      const result = await purchase(user, String(formData.get("orderKey") ?? ""));
      if ("jobId" in result) return redirect(`/store/orders/${result.jobId}`);
      if ("redirectTo" in result) return redirect(result.redirectTo);
      return redirectWithToast(request, ORDER_URL, { kind: "error", message: result.refused });
    }
    default:
      return json({ couponError: "This form is not known on the order page." }, { status: 400 });
  }
}

export default function OrderStep() {
  const { organization, orderKey, couponId, couponError, problems, estimate, estimateError, billingProfile, billingAddress, shippingAddress, card } =
    useLoaderData<typeof loader>();
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
      {problems.length > 0 ? (
        <Alert color="red" role="alert" title="Your order cannot be placed yet">
          <List size="sm">
            {problems.map((problem) => (
              <List.Item key={problem.message}>
                {problem.message}{" "}
                <Anchor component={Link} to={problem.to}>
                  Go to {STEP_TITLES[problem.step]}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      <EstimateOrError estimate={estimate} error={estimateError} caption="Your order" />

      <CouponBox couponId={couponId} error={actionData?.couponError ?? couponError} />

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
        {orderKey ? (
          <Button component={Link} to={`${ORDER_URL}?confirm=1`} loading={placing}>
            {placing ? "Creating Recurring License..." : "Submit Order"}
          </Button>
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
