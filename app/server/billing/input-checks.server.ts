import { isCouponCode } from "~/domain/pricing";
import { refused } from "./errors.server";
import type { BillingProvider } from "./port.server";

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
