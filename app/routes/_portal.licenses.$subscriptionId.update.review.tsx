import { Badge } from "~/ui/badge";
import { List } from "~/ui/list";
import { Text } from "~/ui/typography";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useParams } from "@remix-run/react";
import { formatCents, formatDate } from "~/domain/format";
import { UPDATE_STEP_TITLES, updateStepUrl, type UpdateStep } from "~/domain/license-update";
import { poNumberOf } from "~/domain/purchase-orders";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { redirectWithToast } from "~/server/accounts/session.server";
import { couponIntent } from "~/server/orders/coupons.server";
import {
  licenseUpdateWizard,
  requireOwnLicense,
  submitUpdate,
  updateReview,
} from "~/server/orders/license-update-wizard.server";
import { Group } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { OrderReview } from "~/ui/wizard/order-review";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await updateReview(await requireMember(request, "licenses.update"), params.subscriptionId ?? ""));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readMemberForm(request, "licenses.update");
  const subscriptionId = params.subscriptionId ?? "";
  await requireOwnLicense(form.member, subscriptionId);
  const reviewUrl = updateStepUrl(subscriptionId, "review");
  const coupon = await couponIntent(form.member, licenseUpdateWizard(subscriptionId), form, reviewUrl);
  if (coupon) return coupon;
  if (form.intent !== "update")
    return json({ couponError: "This form is not known on the order page." }, { status: 400 });
  const po = poNumberOf(form.formData.get("po_number"));
  if (!po.ok) return json(po.refusal, { status: 400 });
  const result = await submitUpdate(
    form.member,
    subscriptionId,
    String(form.formData.get("orderKey") ?? ""),
    po.poNumber,
  );
  if ("jobId" in result) return redirect(`/licenses/updates/${result.jobId}`);
  if ("redirectTo" in result) return redirect(result.redirectTo);
  return redirectWithToast(request, reviewUrl, { kind: "error", message: result.refused });
}

const PERIOD = { month: "month", year: "year" } as const;

export default function ReviewStep() {
  const { licenseName, recurring, addons, ...review } = useLoaderData<typeof loader>();
  const subscriptionId = useParams().subscriptionId ?? "";
  const { estimate } = review;
  return (
    <OrderReview
      review={review}
      licenseFor={licenseName}
      stepTitle={(step) => UPDATE_STEP_TITLES[step as UpdateStep]}
      lines={
        <>
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
        </>
      }
      couponFirst
      estimateCaption="Immediate charges"
      noteCredits
      pageUrl={updateStepUrl(subscriptionId, "review")}
      previousTo={updateStepUrl(subscriptionId, "billing")}
      intent="update"
      busyLabel="Updating Subscription..."
      confirm={{
        title: "Update your recurring license?",
        confirmLabel: "Update",
        cancelLabel: "Edit Recurring License",
        needsEstimate: true,
        text: estimate ? (
          <>
            Your card will be charged {formatCents(estimate.amountDue)} now
            {estimate.nextBilling
              ? `, and ${formatCents(estimate.nextBilling.amount)} at the next billing date (${formatDate(estimate.nextBilling.at)})`
              : ""}
            .
          </>
        ) : null,
      }}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
