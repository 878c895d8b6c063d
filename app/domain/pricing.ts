import { z } from "zod";
/**
 * Pricing rules shared by the billing engine and the pages: billing periods, proration and coupons.
 * Amounts are integer cents; every rounding happens here, once per line, to the nearest cent.
 */

export type Period = "month" | "year";

/**
 * The date `count` periods after `from`, the way subscription billing counts: the same day of the month,
 * or the month's last day when it is shorter (Jan 31 + 1 month = Feb 28 or 29).
 */
export function addPeriod(from: Date, period: Period, count = 1): Date {
  const months = period === "year" ? 12 * count : count;
  const target = new Date(from.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return target;
}

/** The share of a full-term amount for the part of the term that is left, to the nearest cent. */
export function prorate(fullTermAmount: number, remainingMs: number, termMs: number): number {
  if (termMs <= 0 || remainingMs <= 0) return 0;
  return Math.round((fullTermAmount * Math.min(remainingMs, termMs)) / termMs);
}

export interface CouponTerms {
  id: string;
  status: string;
  discountType: "percentage" | "fixed_amount";
  discountPercentage: number | null;
  discountAmount: number | null;
  metaData: { type?: string; from?: string };
}

/** What a coupon takes off an invoice amount: a rounded percentage, or a fixed amount no larger than the invoice. */
export function couponDiscount(coupon: CouponTerms, amount: number): number {
  const discount =
    coupon.discountType === "percentage"
      ? Math.round((amount * (coupon.discountPercentage ?? 0)) / 100)
      : (coupon.discountAmount ?? 0);
  return Math.max(0, Math.min(amount, discount));
}

/** What the coupon box says when it refuses a code, for each reason. */
export const COUPON_MESSAGES = {
  empty: "Please enter a valid coupon code.",
  inactive: "This coupon has expired or has already been used.",
  ownReferral: "This referral coupon cannot be applied to your purchases.",
  invalid: "Invalid coupon code.",
  noneToRemove: "No coupon added.",
} as const;

/**
 * What a coupon code may look like before any provider sees it: letters, digits, "-" and "_",
 * at most 50 characters. The code ends up in the provider's request path (Chargebee's /coupons/{id}), so
 * "/", "?", "%", dots and spaces never get that far.
 */
export const couponCodeSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/, COUPON_MESSAGES.invalid);

export const isCouponCode = (code: string) => couponCodeSchema.safeParse(code).success;

/**
 * Why this customer may not apply the coupon, or null when they may: it must be active, and a referral
 * coupon cannot come from one of the customer's own emails (sign-in or billing profile; compared without case).
 */
export function couponRejection(coupon: CouponTerms, customerEmails: string[]): string | null {
  if (coupon.status !== "active") return COUPON_MESSAGES.inactive;
  const from = coupon.metaData.from?.trim().toLowerCase();
  const own = customerEmails.map((email) => email.trim().toLowerCase()).filter(Boolean);
  if (coupon.metaData.type === "referral" && from && own.includes(from)) return COUPON_MESSAGES.ownReferral;
  return null;
}
