import { Badge } from "~/ui/badge";
import { List } from "~/ui/list";
import { Text, Title } from "~/ui/typography";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useParams, useSearchParams } from "@remix-run/react";
import { formatCents, formatDate } from "~/domain/format";
import { UPDATE_STEP_TITLES, updateStepUrl, type UpdateStep } from "~/domain/license-update";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { redirectWithToast } from "~/server/session.server";
import { couponIntent } from "~/server/wizards/coupons.server";
import {
  licenseUpdateWizard,
  requireOwnLicense,
  submitUpdate,
  updateReview,
} from "~/server/wizards/license-update.server";
import { Button, LinkButton } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { ConfirmDialog } from "~/ui/wizard/confirm-dialog";
import { CouponBox } from "~/ui/wizard/coupon-box";
import { OrderParties, OrderProblems } from "~/ui/wizard/order-details";
import { EstimateOrError } from "~/ui/wizard/order-summary";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await updateReview(await requireUser(request), params.subscriptionId ?? ""));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readUserForm(request);
  const subscriptionId = params.subscriptionId ?? "";
  requireOwnLicense(form.user, subscriptionId);
  const reviewUrl = updateStepUrl(subscriptionId, "review");
  const coupon = await couponIntent(form.user, licenseUpdateWizard(subscriptionId), form, reviewUrl);
  if (coupon) return coupon;
  if (form.intent !== "update")
    return json({ couponError: "This form is not known on the order page." }, { status: 400 });
  const result = await submitUpdate(form.user, subscriptionId, String(form.formData.get("orderKey") ?? ""));
  if ("jobId" in result) return redirect(`/licenses/updates/${result.jobId}`);
  if ("redirectTo" in result) return redirect(result.redirectTo);
  return redirectWithToast(request, reviewUrl, { kind: "error", message: result.refused });
}

const PERIOD = { month: "month", year: "year" } as const;

export default function ReviewStep() {
  const {
    licenseName,
    recurring,
    addons,
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
  const subscriptionId = useParams().subscriptionId ?? "";
  const reviewUrl = updateStepUrl(subscriptionId, "review");
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const updating = navigation.state !== "idle" && navigation.formData?.get("intent") === "update";

  return (
    <Stack gap="md">
      <Title order={3}>Review Order</Title>
      <Text>
        Recurring license for <strong>{licenseName}</strong>
      </Text>
      <OrderProblems problems={problems} stepTitle={(step) => UPDATE_STEP_TITLES[step as UpdateStep]} />
      {recurring ? (
        <Group gap="sm" data-testid="recurring-line">
          <Text>
            {recurring.name}: {recurring.users} users x {formatCents(recurring.unitPrice)} per{" "}
            {PERIOD[recurring.period]}
          </Text>
          {recurring.addedUsers > 0 ? <Badge variant="light">+{recurring.addedUsers} users</Badge> : null}
        </Group>
      ) : null}
      {addons.length > 0 ? (
        <List size="sm" aria-label="Add-ons">
          {addons.map((addon) => (
            <List.Item key={addon.id}>
              {addon.name} x {addon.quantity}
            </List.Item>
          ))}
        </List>
      ) : null}

      <CouponBox couponId={couponId} error={actionData?.couponError ?? couponError} />
      <EstimateOrError estimate={estimate} error={estimateError} caption="Immediate charges" noteCredits />
      <OrderParties
        billingProfile={billingProfile}
        billingAddress={billingAddress}
        shippingAddress={shippingAddress}
        card={card}
      />

      <Group justify="space-between" mt="md">
        <LinkButton to={updateStepUrl(subscriptionId, "billing")} variant="default">
          Previous
        </LinkButton>
        {orderKey ? (
          <LinkButton to={`${reviewUrl}?confirm=1`} loading={updating}>
            {updating ? "Updating Subscription..." : "Submit Order"}
          </LinkButton>
        ) : (
          <Button disabled>Submit Order</Button>
        )}
      </Group>

      {searchParams.get("confirm") && orderKey && estimate ? (
        <ConfirmDialog
          title="Update your recurring license?"
          confirmLabel="Update"
          busyLabel="Updating Subscription..."
          cancelLabel="Edit Recurring License"
          cancelTo={reviewUrl}
          intent="update"
          fields={{ orderKey }}
        >
          Your card will be charged {formatCents(estimate.amountDue)} now
          {estimate.nextBilling
            ? `, and ${formatCents(estimate.nextBilling.amount)} at the next billing date (${formatDate(estimate.nextBilling.at)})`
            : ""}
          .
        </ConfirmDialog>
      ) : null}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
