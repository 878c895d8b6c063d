import {
  addPeriod,
  COUPON_MESSAGES,
  couponDiscount,
  couponRejection,
  prorate,
  type CouponTerms,
} from "~/domain/pricing";
import { shippingBoxes, shippingCharge } from "~/domain/shipping";
import { catalogue } from "~/server/billing/catalogue.server";
import {
  changeEstimate,
  creationEstimate,
  invoiceTotals,
  type PricedItem,
} from "~/server/billing/local/estimates.server";
import { oneTimeCharges } from "~/server/billing/orders.server";

/** The pricing rules with worked numbers: shipping (spec 000 §9), proration, coupons. */

describe("shipping", () => {
  it.each([
    [0, 0, null],
    [1, 1, 750],
    [5, 1, 750],
    [6, 2, 1500],
    [100, 20, 15000],
    [101, 20, 15000],
    [5000, 20, 15000],
  ])("%i hardware items ship in %i boxes for %s cents", (items, boxes, cents) => {
    expect(shippingBoxes(items)).toBe(boxes);
    expect(shippingCharge(items)).toEqual(
      cents === null ? null : { id: "gatekeeper-shipping", quantity: 1, unitPrice: cents },
    );
  });

  it("adds the shipping line after the items an order ships, and none for zero quantities", () => {
    expect(
      oneTimeCharges({
        oneTimeAddons: [{ id: "technical-support", quantity: 1 }],
        hardware: [
          { id: "halberd-rechargeable-token", quantity: 4 },
          { id: "usb-sensor", quantity: 3 },
          { id: "halberd-token-sleeve", quantity: 0 },
        ],
      }),
    ).toEqual([
      { id: "technical-support", quantity: 1 },
      { id: "halberd-rechargeable-token", quantity: 4 },
      { id: "usb-sensor", quantity: 3 },
      { id: "gatekeeper-shipping", quantity: 1, unitPrice: 1500 },
    ]);
    expect(oneTimeCharges({ hardware: [{ id: "usb-sensor", quantity: 0 }] })).toEqual([]);
  });
});

describe("billing periods", () => {
  it("keeps the day of the month, or the month's last day", () => {
    expect(addPeriod(new Date("2026-01-15T10:00:00Z"), "month")).toEqual(new Date("2026-02-15T10:00:00Z"));
    expect(addPeriod(new Date("2026-01-31T00:00:00Z"), "month")).toEqual(new Date("2026-02-28T00:00:00Z"));
    expect(addPeriod(new Date("2028-01-31T00:00:00Z"), "month")).toEqual(new Date("2028-02-29T00:00:00Z"));
    expect(addPeriod(new Date("2026-12-31T00:00:00Z"), "month")).toEqual(new Date("2027-01-31T00:00:00Z"));
    expect(addPeriod(new Date("2028-02-29T00:00:00Z"), "year")).toEqual(new Date("2029-02-28T00:00:00Z"));
  });
});

describe("proration", () => {
  it("charges the share of the term that is left, to the nearest cent", () => {
    const day = 24 * 60 * 60 * 1000;
    expect(prorate(400, 15 * day, 30 * day)).toBe(200);
    expect(prorate(400, 10 * day, 30 * day)).toBe(133); // 133.33
    expect(prorate(500, 20 * day, 30 * day)).toBe(333); // 333.33
    expect(prorate(9900, 1 * day, 31 * day)).toBe(319); // 319.35
    expect(prorate(400, 40 * day, 30 * day)).toBe(400);
    expect(prorate(400, -day, 30 * day)).toBe(0);
  });

  const core = (quantity: number, unitPrice = 400): PricedItem => ({
    entityType: "plan",
    id: "core-monthly",
    description: "Core (Monthly Billing)",
    unitPrice,
    quantity,
  });
  const termStart = new Date("2026-03-01T00:00:00Z");
  const termEnd = new Date("2026-03-31T00:00:00Z");

  it("prorates per unit: 10 to 13 users with 10 of 30 days left", () => {
    const estimate = changeEstimate({
      current: { recurring: [core(10)], period: "month", termStart, termEnd },
      next: { recurring: [core(13)], period: "month" },
      coupons: [],
      now: new Date("2026-03-21T00:00:00Z"),
    });
    // A user costs 133 cents for the third of the term that is left.
    expect(estimate.lineItems).toMatchObject([{ quantity: 13, unitAmount: 133, amount: 1729 }]);
    expect(estimate).toMatchObject({ subTotal: 1729, creditsApplied: 1330, amountDue: 399 });
    expect(estimate.nextBilling).toEqual({ at: termEnd, amount: 5200 });
  });

  it("keeps the unit price the subscription pays, against today's price list", () => {
    const estimate = changeEstimate({
      current: { recurring: [core(10, 350)], period: "month", termStart, termEnd },
      next: { recurring: [core(12)], period: "month" },
      coupons: [],
      now: new Date("2026-03-16T00:00:00Z"),
    });
    expect(estimate).toMatchObject({ subTotal: 12 * 200, creditsApplied: 10 * 175, amountDue: 650 });
  });
});

describe("coupons", () => {
  const coupon = (id: string) => {
    const found = catalogue.coupon(id);
    if (!found) throw new Error(`no coupon ${id}`);
    return found;
  };

  it("takes a rounded percentage, or a fixed amount no larger than the invoice", () => {
    expect(couponDiscount(coupon("WELCOME10"), 92400)).toBe(9240);
    expect(couponDiscount(coupon("WELCOME10"), 1005)).toBe(101); // 100.5 rounds up
    expect(couponDiscount(coupon("SAVE50"), 92400)).toBe(5000);
    expect(couponDiscount(coupon("SAVE50"), 3000)).toBe(3000);
  });

  it("applies coupons one after another on what is left, before credits", () => {
    const lines = creationEstimate({
      recurring: [
        { entityType: "plan", id: "advanced-monthly", description: "Advanced", unitPrice: 600, quantity: 25 },
      ],
      oneTime: [],
      period: "month",
      coupons: [coupon("SAVE50"), coupon("WELCOME10")],
      start: new Date("2026-04-01T00:00:00Z"),
    });
    // 15000 - 5000 = 10000, then 10% of that.
    expect(lines.discounts.map((discount) => [discount.entityId, discount.amount])).toEqual([
      ["SAVE50", 5000],
      ["WELCOME10", 1000],
    ]);
    expect(lines).toMatchObject({ subTotal: 15000, total: 9000, amountDue: 9000 });
    expect(invoiceTotals(lines.lineItems, [coupon("WELCOME10")], 20000)).toMatchObject({
      total: 13500,
      creditsApplied: 13500,
      amountDue: 0,
    });
  });

  it("accepts an active coupon and refuses an expired one or a referral from the customer's own email", () => {
    expect(couponRejection(coupon("WELCOME10"), ["customer@example.com"])).toBeNull();
    expect(couponRejection(coupon("REF-PARTNER"), ["customer@example.com"])).toBeNull();
    expect(couponRejection(coupon("SPRING2024"), ["customer@example.com"])).toBe(
      "This coupon has expired or has already been used.",
    );
    // The referral's source is Customer@Example.com: compared without case.
    expect(couponRejection(coupon("REF-CUSTOMER"), [" CUSTOMER@example.COM "])).toBe(COUPON_MESSAGES.ownReferral);
    // The billing profile's email counts as the customer's own too, whatever the sign-in email is.
    expect(couponRejection(coupon("REF-CUSTOMER"), ["someone.else@example.org", "customer@example.com"])).toBe(COUPON_MESSAGES.ownReferral);
    const custom: CouponTerms = {
      ...coupon("REF-CUSTOMER"),
      metaData: { type: "promotion", from: "customer@example.com" },
    };
    expect(couponRejection(custom, ["customer@example.com"])).toBeNull();
  });
});
