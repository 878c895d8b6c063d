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
  oneTimeInvoice,
  renewalInvoice,
  type PricedItem,
} from "~/server/billing/local/estimates.server";
import { oneTimeCharges } from "~/server/billing/one-time-charges.server";
import type { Billed } from "~/server/billing/port.server";

/** The pricing rules with worked numbers: shipping (750 cents per box of five items), proration, coupons. */

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

/** An item at its db/catalogue.json price unless the subscription pays another. */
const item = (id: string, quantity: number, unitPrice: number, entityType: "plan" | "addon" = "plan"): PricedItem => ({
  entityType,
  id,
  description: id,
  unitPrice,
  quantity,
});
const cloud = item("gatekeeper-cloud-monthly", 1, 9900, "addon");

/** An invoice's money in one line: charged after coupons, credits issued and applied, due, kept as balance. */
const money = (invoice: Billed) => ({
  total: invoice.total,
  issued: invoice.creditsIssued,
  applied: invoice.creditsApplied,
  due: invoice.amountDue,
  kept: invoice.creditBalance,
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

  const core = (quantity: number, unitPrice = 400) => item("core-monthly", quantity, unitPrice);
  const termStart = new Date("2026-03-01T00:00:00Z");
  const termEnd = new Date("2026-03-31T00:00:00Z");

  it("rounds once per line, not per unit: core monthly from 10 to 13 users with 10 of 30 days left", () => {
    const estimate = changeEstimate({
      current: { recurring: [core(10)], period: "month", termStart, termEnd },
      next: { recurring: [core(13)], period: "month" },
      coupons: [],
      now: new Date("2026-03-21T00:00:00Z"),
      creditBalance: 0,
    });
    // 13 x 400 x 10/30 = 1733.33 -> 1733 (per unit it would be 133 x 13 = 1729);
    // the old line: 10 x 400 x 10/30 = 1333.33 -> 1333 (per unit 1330).
    expect(estimate.lineItems).toMatchObject([
      { quantity: 13, unitAmount: 400, amount: 1733, dateFrom: new Date("2026-03-21T00:00:00Z"), dateTo: termEnd },
    ]);
    expect(money(estimate)).toEqual({ total: 1733, issued: 1333, applied: 1333, due: 400, kept: 0 });
    expect(estimate.nextBilling).toEqual({ at: termEnd, amount: 5200, amountDue: 5200 });
  });

  it("lowers a term's unpaid invoice by the unused part instead of crediting it, and credits only the rest", () => {
    const change = {
      current: { recurring: [core(10)], period: "month" as const, termStart, termEnd },
      next: { recurring: [core(13)], period: "month" as const },
      coupons: [],
      now: new Date("2026-03-21T00:00:00Z"),
      creditBalance: 0,
    };
    // The unused part is 1333 (10 x 400 x 10/30); the renewal that no card paid still asks for 1000 of it.
    const estimate = changeEstimate({ ...change, unpaid: 1000 });
    expect(estimate.adjustments).toBe(1000);
    expect(money(estimate)).toEqual({ total: 1733, issued: 333, applied: 333, due: 1400, kept: 0 });
    const wholeTermUnpaid = changeEstimate({ ...change, unpaid: 4000 });
    expect(wholeTermUnpaid).toMatchObject({ adjustments: 1333, creditsIssued: 0, amountDue: 1733, creditBalance: 0 });
  });

  it("prorates a tier change over a 31-day month: advanced to ultimate, 7 users and the cloud Hub, 9 days left", () => {
    const estimate = changeEstimate({
      current: {
        recurring: [item("advanced-monthly", 7, 600), cloud],
        period: "month",
        termStart: new Date("2026-03-01T00:00:00Z"),
        termEnd: new Date("2026-04-01T00:00:00Z"),
      },
      next: { recurring: [item("ultimate-monthly", 7, 800), cloud], period: "month" },
      coupons: [],
      now: new Date("2026-03-23T00:00:00Z"),
      creditBalance: 0,
    });
    // ultimate 7 x 800 x 9/31 = 1625.81 -> 1626 (per unit: 232 x 7 = 1624); cloud 9900 x 9/31 = 2874.19 -> 2874.
    expect(estimate.lineItems.map((line) => [line.entityId, line.unitAmount, line.amount])).toEqual([
      ["ultimate-monthly", 800, 1626],
      ["gatekeeper-cloud-monthly", 9900, 2874],
    ]);
    // Credits: advanced 7 x 600 x 9/31 = 1219.35 -> 1219; cloud 2874.
    expect(estimate).toMatchObject({ subTotal: 4500, creditsIssued: 4093, creditsApplied: 4093, amountDue: 407 });
    expect(estimate.nextBilling).toEqual({
      at: new Date("2026-04-01T00:00:00Z"),
      amount: 7 * 800 + 9900,
      amountDue: 7 * 800 + 9900,
    });
  });

  it("keeps the unit price the subscription pays, against today's price list", () => {
    const estimate = changeEstimate({
      current: { recurring: [core(10, 350)], period: "month", termStart, termEnd },
      next: { recurring: [core(12)], period: "month" },
      coupons: [],
      now: new Date("2026-03-16T00:00:00Z"),
      creditBalance: 0,
    });
    expect(estimate).toMatchObject({ subTotal: 12 * 200, creditsApplied: 10 * 175, amountDue: 650 });
  });
});

describe("credits", () => {
  const termStart = new Date("2026-04-01T00:00:00Z");
  const termEnd = new Date("2026-05-01T00:00:00Z");
  const midTerm = new Date("2026-04-16T00:00:00Z");
  const save50 = catalogue.coupon("SAVE50")!;

  it("keeps credits that exceed the invoice as the customer's balance, for the next invoice", () => {
    // Core 10 users + cloud to advanced 15 users + cloud, half the term left, with $50 off.
    const estimate = changeEstimate({
      current: { recurring: [item("core-monthly", 10, 400), cloud], period: "month", termStart, termEnd },
      next: { recurring: [item("advanced-monthly", 15, 600), cloud], period: "month" },
      coupons: [save50],
      now: midTerm,
      creditBalance: 0,
    });
    // Charges 4500 + 4950 = 9450, less 5000 = 4450; credits 2000 + 4950 = 6950: 4450 used, 2500 kept.
    expect(estimate.subTotal).toBe(9450);
    expect(money(estimate)).toEqual({ total: 4450, issued: 6950, applied: 4450, due: 0, kept: 2500 });
    // The renewal (15 x 600 + 9900 = 18900) is paid from the 2500 first.
    expect(estimate.nextBilling).toEqual({ at: termEnd, amount: 18900, amountDue: 16400 });
  });

  it("uses the balance on the next invoice: a change, a renewal, a new subscription, a hardware order", () => {
    const change = changeEstimate({
      current: { recurring: [item("advanced-monthly", 15, 600), cloud], period: "month", termStart, termEnd },
      next: { recurring: [item("advanced-monthly", 20, 600), cloud], period: "month" },
      coupons: [],
      now: midTerm,
      creditBalance: 2500,
    });
    // 6000 + 4950 = 10950 charged; 4500 + 4950 issued and the 2500 balance: 10950 used, 1000 left.
    expect(money(change)).toEqual({ total: 10950, issued: 9450, applied: 10950, due: 0, kept: 1000 });
    expect(change.nextBilling).toEqual({ at: termEnd, amount: 21900, amountDue: 20900 });

    expect(money(renewalInvoice([item("core-monthly", 10, 400)], termStart, termEnd, 2500))).toEqual({
      total: 4000,
      issued: 0,
      applied: 2500,
      due: 1500,
      kept: 0,
    });
    const created = creationEstimate({
      recurring: [item("core-monthly", 2, 400)],
      oneTime: [],
      period: "month",
      coupons: [],
      start: termStart,
      creditBalance: 2500,
    });
    expect(money(created)).toEqual({ total: 800, issued: 0, applied: 800, due: 0, kept: 1700 });
    expect(created.nextBilling).toEqual({ at: termEnd, amount: 800, amountDue: 0 });
    const sensor: PricedItem = { entityType: "addon", id: "usb-sensor", description: "", unitPrice: 6000, quantity: 1 };
    expect(oneTimeInvoice([sensor], termStart, 2500)).toMatchObject({ creditsApplied: 2500, amountDue: 3500 });
  });

  it("leaves the balance alone when nothing changes", () => {
    const unchanged = changeEstimate({
      current: { recurring: [item("core-monthly", 10, 400)], period: "month", termStart, termEnd },
      next: { recurring: [item("core-monthly", 10, 400)], period: "month" },
      coupons: [],
      now: midTerm,
      creditBalance: 2500,
    });
    expect(unchanged).toMatchObject({ lineItems: [], creditsIssued: 0, creditsApplied: 0, creditBalance: 2500 });
    expect(unchanged.nextBilling).toEqual({ at: termEnd, amount: 4000, amountDue: 1500 });
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
      creditBalance: 0,
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
    expect(couponRejection(coupon("REF-CUSTOMER"), ["someone.else@example.org", "customer@example.com"])).toBe(
      COUPON_MESSAGES.ownReferral,
    );
    const custom: CouponTerms = {
      ...coupon("REF-CUSTOMER"),
      metaData: { type: "promotion", from: "customer@example.com" },
    };
    expect(couponRejection(custom, ["customer@example.com"])).toBeNull();
  });
});
