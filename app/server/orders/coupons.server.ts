import { json, redirect } from "@remix-run/node";
import { COUPON_MESSAGES, couponRejection } from "~/domain/pricing";
import { errorMessage, getBilling, ProviderError } from "~/server/billing/index.server";
import { takeCouponApply, waitMessage } from "~/server/platform/throttle.server";
import type { Scope } from "~/server/accounts/index.server";
import type { DraftOwner } from "~/server/platform/wizards/drafts.server";

/** A wizard whose draft holds a coupon (the new-subscription and update wizards). */
interface CouponDraft {
  read(owner: DraftOwner): Promise<{ data: { couponId: string | null } }>;
  save(owner: DraftOwner, changes: { couponId: string | null }): Promise<unknown>;
}

/** The customer's emails a referral coupon may not come from: the member's own and the billing profile's. */
async function ownEmails({ user, organization }: Scope): Promise<string[]> {
  if (!organization.billingCustomerId) return [user.email];
  try {
    return [user.email, (await getBilling().retrieveCustomer(organization.billingCustomerId)).email];
  } catch (error) {
    if (error instanceof ProviderError) return [user.email];
    throw error;
  }
}

/** Why the coupon cannot be used on this customer's order, or null when it can. */
export async function couponProblem(scope: Scope, code: string): Promise<string | null> {
  const trimmed = code.trim();
  if (!trimmed) return COUPON_MESSAGES.empty;
  try {
    const coupon = await getBilling().retrieveCoupon(trimmed);
    return couponRejection(coupon, await ownEmails(scope));
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return error.kind === "final" ? COUPON_MESSAGES.invalid : errorMessage(error, COUPON_MESSAGES.invalid);
  }
}

/**
 * The coupon box's two buttons: Apply checks the coupon and keeps it, or removes
 * it and says why; Remove clears it ('No coupon added.' when there is none).
 */
export async function applyCoupon(scope: Scope, wizard: CouponDraft, code: string): Promise<string | null> {
  // Each Apply is a provider call with a guessable secret: throttled per organization (all its members together).
  const waitSeconds = code.trim() ? await takeCouponApply(scope.organization.id) : 0;
  const problem = waitSeconds > 0 ? waitMessage("coupon attempts", waitSeconds) : await couponProblem(scope, code);
  await wizard.save(scope, { couponId: problem ? null : code.trim() });
  return problem;
}

export async function removeCoupon(scope: Scope, wizard: CouponDraft): Promise<string | null> {
  if (!(await wizard.read(scope)).data.couponId) return COUPON_MESSAGES.noneToRemove;
  await wizard.save(scope, { couponId: null });
  return null;
}

/** Whether a post is one of the coupon box's buttons. */
export const isCouponIntent = (intent: string) => intent === "apply-coupon" || intent === "remove-coupon";

/** An order page's coupon buttons: back to the page, or the reason next to the field; null for other intents. */
export async function couponIntent(
  scope: Scope,
  wizard: CouponDraft,
  { intent, formData }: { intent: string; formData: FormData },
  pageUrl: string,
) {
  if (!isCouponIntent(intent)) return null;
  const problem =
    intent === "apply-coupon"
      ? await applyCoupon(scope, wizard, String(formData.get("coupon") ?? ""))
      : await removeCoupon(scope, wizard);
  return problem ? json({ couponError: problem }, { status: 422 }) : redirect(pageUrl);
}
