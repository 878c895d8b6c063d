import { isCouponCode } from "~/domain/pricing";
import { refused } from "./errors.server";
import type { BillingProvider } from "./port.server";

/** The most events a page of the provider's events holds (Chargebee's largest page). */
export const EVENT_PAGE_SIZE = 100;

/** A page size of the events list: 1 to 100, 100 when not given. */
export function eventPageSize(limit = EVENT_PAGE_SIZE): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > EVENT_PAGE_SIZE) {
    throw refused(`A page holds 1 to ${EVENT_PAGE_SIZE} events.`, "invalid_limit", "limit");
  }
  return limit;
}

function checkCoupons(couponIds: string[] | undefined) {
  const malformed = couponIds?.find((code) => !isCouponCode(code));
  if (malformed !== undefined) throw refused("Invalid coupon code.", "not_found", "coupon");
}

/**
 * The provider behind a check of what callers pass in: a malformed coupon code is refused here, the way an
 * unknown one is, so no adapter (Chargebee puts the code in its request path) ever sends one.
 */
export function withInputChecks(provider: BillingProvider): BillingProvider {
  return Object.assign(Object.create(provider) as BillingProvider, {
    async retrieveCoupon(code: string) {
      checkCoupons([code]);
      return provider.retrieveCoupon(code);
    },
    async estimateNewSubscription(request: Parameters<BillingProvider["estimateNewSubscription"]>[0]) {
      checkCoupons(request.couponIds);
      return provider.estimateNewSubscription(request);
    },
    async createSubscription(...args: Parameters<BillingProvider["createSubscription"]>) {
      checkCoupons(args[0].couponIds);
      return provider.createSubscription(...args);
    },
    async estimateSubscriptionUpdate(...args: Parameters<BillingProvider["estimateSubscriptionUpdate"]>) {
      checkCoupons(args[2].couponIds);
      return provider.estimateSubscriptionUpdate(...args);
    },
    async updateSubscription(...args: Parameters<BillingProvider["updateSubscription"]>) {
      checkCoupons(args[2].couponIds);
      return provider.updateSubscription(...args);
    },
  });
}
