import { json, redirect } from "@remix-run/node";
import { COUPON_MESSAGES, couponRejection } from "~/domain/pricing";
import { errorMessage, getBilling, ProviderError } from "../billing/index.server";
import { takeCouponApply, waitMessage } from "../throttle.server";
import type { UserRecord } from "../users.server";

/** A wizard whose draft holds a coupon (the new-subscription and update wizards). */
interface CouponDraft {
  read(ownerId: string): { data: { couponId: string | null } };
  save(ownerId: string, changes: { couponId: string | null }): unknown;
}

/** The customer's emails a referral coupon may not come from: the sign-in email and the billing profile's. */
async function ownEmails(user: UserRecord): Promise<string[]> {
  if (!user.billingCustomerId) return [user.email];
  try {
    return [user.email, (await getBilling().retrieveCustomer(user.billingCustomerId)).email];
  } catch (error) {
    if (error instanceof ProviderError) return [user.email];
    throw error;
  }
}

/** Why the coupon cannot be used on this customer's order, or null when it can. */
export async function couponProblem(user: UserRecord, code: string): Promise<string | null> {
  const trimmed = code.trim();
  if (!trimmed) return COUPON_MESSAGES.empty;
  try {
    const coupon = await getBilling().retrieveCoupon(trimmed);
    return couponRejection(coupon, await ownEmails(user));
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return error.kind === "final" ? COUPON_MESSAGES.invalid : errorMessage(error, COUPON_MESSAGES.invalid);
  }
}

/**
 * The coupon box's two buttons: Apply checks the coupon and keeps it, or removes
 * it and says why; Remove clears it ('No coupon added.' when there is none).
 */
export async function applyCoupon(user: UserRecord, wizard: CouponDraft, code: string): Promise<string | null> {
  // Each Apply is a provider call with a guessable secret: throttled per account.
  const waitSeconds = code.trim() ? await takeCouponApply(user.id) : 0;
  const problem = waitSeconds > 0 ? waitMessage("coupon attempts", waitSeconds) : await couponProblem(user, code);
  wizard.save(user.id, { couponId: problem ? null : code.trim() });
  return problem;
}

export function removeCoupon(user: UserRecord, wizard: CouponDraft): string | null {
  if (!wizard.read(user.id).data.couponId) return COUPON_MESSAGES.noneToRemove;
  wizard.save(user.id, { couponId: null });
  return null;
}

/** An order page's coupon buttons: back to the page, or the reason next to the field; null for other intents. */
export async function couponIntent(
  user: UserRecord,
  wizard: CouponDraft,
  { intent, formData }: { intent: string; formData: FormData },
  pageUrl: string,
) {
  if (intent !== "apply-coupon" && intent !== "remove-coupon") return null;
  const problem =
    intent === "apply-coupon"
      ? await applyCoupon(user, wizard, String(formData.get("coupon") ?? ""))
      : removeCoupon(user, wizard);
  return problem ? json({ couponError: problem }, { status: 422 }) : redirect(pageUrl);
}
