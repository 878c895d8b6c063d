import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { authenticatedTokenOf, tokenOf } from "../support/card-tokens";
import { formatCents } from "~/domain/format";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { db } from "~/server/platform/database/db.server";
import {
  AUTHENTICATION_REQUIRED,
  PAYMENT_INTENT_EXPIRED,
  PAYMENT_INTENT_EXPIRED_MESSAGE,
  PAYMENT_INTENT_INVALID,
  type BillingCall,
  type BillingProvider,
  type CustomerProfile,
  type InvoicePdf,
  type LineItem,
  type ProviderEvent,
} from "~/server/billing/port.server";
import { billingClock } from "~/server/platform/database/tables.server";
import { pdfText } from "../support/pdf-text";

/**
 * The billing port's behaviour contract, run against every adapter: the same calls give the same results
 * (worked numbers from db/catalogue.json) and fail the same way. Each adapter's test file supplies a
 * provider over its own temporary database and a clock the suite sets.
 */
export interface ContractSubject {
  billing: BillingProvider;
  /** Moves the provider's clock forward (the embedded engine's time machine; a Chargebee test site's). */
  advanceClock: (days: number) => Promise<unknown>;
  /** The next such call takes effect and its answer is lost on the way back (a timeout after the provider acted). */
  loseNextAnswer: (to: { call: BillingCall; method: string; path: string }) => void | Promise<void>;
  /**
   * The cardholder's answer on the bank's page of a payment intent: the embedded gateway's bank page, or the
   * challenge Chargebee.js opens for a Chargebee intent (the fake's hook).
   */
  answerBank: (paymentIntentId: string, outcome: "complete" | "fail") => Promise<unknown>;
  close?: () => Promise<void>;
}

/** A 30-day term: April 2026. Halfway through it, exactly half of the term is left. */
export const TERM_START = new Date("2026-04-01T00:00:00Z");
export const TERM_END = new Date("2026-05-01T00:00:00Z");
export const MID_TERM = new Date("2026-04-16T00:00:00Z");
/** The renewed term: May 2026. */
const NEXT_TERM_END = new Date("2026-06-01T00:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const daysAfter = (date: Date, days: number) => new Date(date.getTime() + days * DAY);
/** What core-monthly for 10 users with a cloud Hub costs a term. */
const TERM_AMOUNT = 10 * 400 + 9900;

/** The bytes of an invoice's PDF: the document itself, or what its download address serves. */
async function pdfBytes(pdf: InvoicePdf): Promise<Uint8Array> {
  if (pdf.kind === "document") return pdf.bytes;
  const response = await fetch(pdf.url);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  return new Uint8Array(await response.arrayBuffer());
}

const PROFILE: CustomerProfile = {
  firstName: "Erin",
  lastName: "Contract",
  email: "erin@example.org",
  phone: "+1 206 555 0100",
  company: "Contract Clinics",
};

/** Line items as [item, quantity, unit amount, amount], to compare with worked numbers. */
const lines = (invoice: { lineItems: LineItem[] }) =>
  invoice.lineItems.map(({ entityId, quantity, unitAmount, amount }) => [entityId, quantity, unitAmount, amount]);

/** What a provider's failure must look like; the test asserts these fields only. */
const failure = (fields: { kind?: string; code?: string; providerMessage?: string }) => expect.objectContaining(fields);

export function billingContract(adapter: string, start: (now: () => Date) => Promise<ContractSubject>) {
  describe(`billing contract: ${adapter}`, () => {
    let clock = TERM_START;
    let subject: ContractSubject;
    let billing: BillingProvider;
    const cards = createLocalCards({ store: db, now: () => clock });
    let customers = 0;

    beforeAll(async () => {
      subject = await start(() => clock);
      billing = subject.billing;
    });
    afterAll(async () => {
      await subject.close?.();
    });
    beforeEach(async () => {
      clock = TERM_START;
      // Each test starts with the time machine at rest.
      await db.delete(billingClock);
    });

    const cardForm = (number: string) => {
      const form = new FormData();
      form.set("card_number", number);
      form.set("card_expiry", "12 / 34");
      form.set("card_cvc", number.startsWith("37") ? "1234" : "123");
      return form;
    };
    const tokenFor = (number: string, key: string) =>
      tokenOf(cards, cardForm(number), { firstName: "Erin", lastName: "Contract" }, key);

    async function newCustomer() {
      const id = `cust_contract_${++customers}`;
      return billing.ensureCustomer(id, PROFILE, `${id}:create`);
    }

    async function customerWithCard() {
      const customer = await newCustomer();
      const tmpToken = await tokenFor("4242 4242 4242 4242", `${customer.id}:token`);
      const source = await billing.createPaymentSourceFromTempToken(
        { customerId: customer.id, tmpToken, setAsPrimary: true },
        `${customer.id}:source`,
      );
      return { customerId: customer.id, source, tmpToken };
    }

    /** Core monthly for 10 users with a cloud Hub, from the start of the term. */
    const subscription = (customerId: string, paymentSourceId: string) =>
      billing.createSubscription(
        {
          customerId,
          planId: "core-monthly",
          planQuantity: 10,
          startDate: TERM_START,
          addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
          paymentSourceId,
          licenseAssignment: "Contract Clinics",
        },
        `${customerId}:subscribe`,
      );

    async function subscribed() {
      const { customerId, source } = await customerWithCard();
      return { customerId, source, subscription: await subscription(customerId, source.id) };
    }

    it("finds the subscription a create call made by its key, and nothing for a key never used", async () => {
      const { customerId, subscription: made } = await subscribed();
      expect((await billing.findSubscriptionByKey(customerId, `${customerId}:subscribe`))?.id).toBe(made.id);
      expect(await billing.findSubscriptionByKey(customerId, `${customerId}:never-sent`)).toBeNull();
    });

    it("estimates a new subscription before the customer exists", async () => {
      const estimate = await billing.estimateNewSubscription({
        planId: "core-monthly",
        planQuantity: 10,
        startDate: TERM_START,
        addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
      });
      expect(estimate.amountDue).toBe(10 * 400 + 9900);
    });

    it("lists the price list's plans and add-ons in cents", async () => {
      const plans = await billing.listPlans();
      expect(plans).toHaveLength(12);
      expect(plans.find((plan) => plan.id === "core-monthly")).toEqual({
        id: "core-monthly",
        name: "Core (Monthly Billing)",
        displayName: "Core",
        description: "Token-based login and automatic lock for every workstation.",
        price: 400,
        period: "month",
        tier: "core",
      });
      // Yearly is 20% below twelve months.
      expect(plans.find((plan) => plan.id === "core-yearly")?.price).toBe(400 * 12 * 0.8);
      expect(plans.find((plan) => plan.id === "reseller-core-monthly")?.name).toBe(
        "Core (Monthly Billing) for resellers",
      );

      const addons = await billing.listAddons();
      const byId = (id: string) => addons.find((addon) => addon.id === id);
      expect(byId("halberd-rechargeable-token")).toMatchObject({
        addonType: "hardware",
        price: 4500,
        period: null,
        chargedPerUnit: true,
      });
      expect(byId("gatekeeper-cloud-monthly")).toMatchObject({
        addonType: "recurring",
        price: 9900,
        period: "month",
        chargedPerUnit: false,
      });
      expect(byId("on-site-installation")).toMatchObject({ addonType: "non-recurring", price: 150000 });
      expect(byId("gatekeeper-shipping")).toMatchObject({ addonType: "shipping", price: 750, chargedPerUnit: false });
      // Every hosting and service add-on and the shipping line are present or absent; only hardware is counted.
      expect(addons.filter((addon) => addon.chargedPerUnit).every((addon) => addon.addonType === "hardware")).toBe(
        true,
      );
    });

    it("retrieves coupons with status and referral source, and refuses unknown codes", async () => {
      expect(await billing.retrieveCoupon("WELCOME10")).toMatchObject({
        status: "active",
        discountType: "percentage",
        discountPercentage: 10,
      });
      expect(await billing.retrieveCoupon("SAVE50")).toMatchObject({
        discountType: "fixed_amount",
        discountAmount: 5000,
      });
      expect((await billing.retrieveCoupon("SPRING2024")).status).toBe("expired");
      expect((await billing.retrieveCoupon("REF-CUSTOMER")).metaData).toEqual({
        type: "referral",
        from: "Customer@Example.com",
      });
      await expect(billing.retrieveCoupon("NOPE")).rejects.toEqual(failure({ kind: "final", code: "not_found" }));
    });

    it("creates a customer on first need and keeps it on later calls", async () => {
      const customer = await newCustomer();
      expect(customer).toEqual({
        id: customer.id,
        ...PROFILE,
        billingAddress: null,
        vatNumber: null,
        vatNumberStatus: null,
        primaryPaymentSourceId: null,
        creditBalance: 0,
      });
      const again = await billing.ensureCustomer(customer.id, { ...PROFILE, firstName: "Other" }, "another-key");
      expect(again.firstName).toBe("Erin");
      expect(await billing.retrieveCustomer(customer.id)).toEqual(customer);
      await expect(billing.retrieveCustomer("cust_nobody")).rejects.toEqual(
        failure({ kind: "final", code: "not_found" }),
      );
    });

    it("updates the profile and the billing address", async () => {
      const { id } = await newCustomer();
      const profile = { ...PROFILE, firstName: "Erin-Mae", company: "Contract Clinics West" };
      expect(await billing.updateCustomer(id, profile)).toMatchObject(profile);
      const address = {
        firstName: "Erin",
        lastName: "Contract",
        line1: "1 Main Street",
        line2: "Floor 2",
        city: "Seattle",
        state: "Washington",
        stateCode: "WA",
        zip: "98101",
        country: "US",
      };
      const info = { billingAddress: address, vatNumber: null, vatNumberStatus: "unchecked" as const };
      expect((await billing.updateBillingInfo(id, info)).billingAddress).toEqual(address);
      expect((await billing.retrieveCustomer(id)).billingAddress).toEqual(address);
    });

    it("adds a card from a temporary token, once per idempotency key", async () => {
      const { customerId, source, tmpToken: firstToken } = await customerWithCard();
      expect(source).toMatchObject({
        customerId,
        type: "card",
        status: "valid",
        card: {
          brand: "visa",
          last4: "4242",
          firstName: "Erin",
          lastName: "Contract",
          expiryMonth: 12,
          expiryYear: 2034,
        },
      });
      expect((await billing.retrieveCustomer(customerId)).primaryPaymentSourceId).toBe(source.id);

      // A repeat (a double submit) sends the same request with the same key, and gets the first card back.
      const repeat = await billing.createPaymentSourceFromTempToken(
        { customerId, tmpToken: firstToken, setAsPrimary: true },
        `${customerId}:source`,
      );
      expect(repeat.id).toBe(source.id);

      const tmpToken = await tokenFor("5555 5555 5555 4444", `${customerId}:second-token`);
      const second = await billing.createPaymentSourceFromTempToken(
        { customerId, tmpToken, setAsPrimary: false },
        `${customerId}:second`,
      );
      expect(second.card?.brand).toBe("mastercard");
      expect((await billing.listPaymentSources(customerId)).map((s) => s.id)).toEqual([source.id, second.id]);
      expect((await billing.retrieveCustomer(customerId)).primaryPaymentSourceId).toBe(source.id);

      await expect(
        billing.createPaymentSourceFromTempToken({ customerId, tmpToken, setAsPrimary: false }, `${customerId}:spent`),
      ).rejects.toEqual(failure({ kind: "final" }));
    });

    it("deletes a card for its owner only", async () => {
      const { customerId, source } = await customerWithCard();
      const stranger = await newCustomer();
      await expect(billing.deleteLocalPaymentSource(stranger.id, source.id)).rejects.toEqual(
        failure({ kind: "final", code: "not_found" }),
      );
      await billing.deleteLocalPaymentSource(customerId, source.id);
      expect(await billing.listPaymentSources(customerId)).toEqual([]);
      expect((await billing.retrieveCustomer(customerId)).primaryPaymentSourceId).toBeNull();
    });

    it("adds a card from a payment method attached to the gateway customer", async () => {
      const { customerId, source } = await customerWithCard();
      const gatewayCustomer = source.referenceId.split("/")[0];
      const method = await cards.createPaymentMethod(
        await tokenFor("3782 822463 10005", `${customerId}:amex-token`),
        `${customerId}:amex-method`,
      );
      await cards.attachPaymentMethod(method.id, gatewayCustomer, `${customerId}:amex-attach`);
      const amex = await billing.createPaymentSourceFromPermanentToken(
        { customerId, referenceId: `${gatewayCustomer}/${method.id}`, setAsPrimary: true },
        `${customerId}:amex`,
      );
      expect(amex).toMatchObject({ status: "valid", referenceId: `${gatewayCustomer}/${method.id}` });
      expect(amex.card).toMatchObject({ brand: "american_express", last4: "0005" });
      expect((await billing.retrieveCustomer(customerId)).primaryPaymentSourceId).toBe(amex.id);

      await expect(
        billing.createPaymentSourceFromPermanentToken(
          { customerId, referenceId: method.id, setAsPrimary: true },
          `${customerId}:no-customer-part`,
        ),
      ).rejects.toEqual(failure({ kind: "final", providerMessage: "Invalid customer id" }));
    });

    it("estimates a new subscription: plan, recurring add-on, one-time items, shipping, coupon", async () => {
      const { id: customerId } = await newCustomer();
      const estimate = await billing.estimateNewSubscription({
        customerId,
        planId: "core-monthly",
        planQuantity: 10,
        startDate: TERM_START,
        addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
        oneTimeAddons: [
          { id: "virtual-installation", quantity: 1 },
          { id: "training-web", quantity: 0 },
        ],
        hardware: [{ id: "halberd-rechargeable-token", quantity: 6 }],
        couponIds: ["WELCOME10"],
      });
      expect(lines(estimate)).toEqual([
        ["core-monthly", 10, 400, 4000],
        ["gatekeeper-cloud-monthly", 1, 9900, 9900],
        ["virtual-installation", 1, 50000, 50000],
        ["halberd-rechargeable-token", 6, 4500, 27000],
        // Six items ship in two boxes of 750 cents.
        ["gatekeeper-shipping", 1, 1500, 1500],
      ]);
      expect(estimate.lineItems[0]).toMatchObject({
        entityType: "plan",
        description: "Core (Monthly Billing)",
        dateFrom: TERM_START,
        dateTo: TERM_END,
      });
      expect(estimate.discounts).toEqual([
        { entityType: "document_level_coupon", entityId: "WELCOME10", description: "Welcome 10% off", amount: 9240 },
      ]);
      expect(estimate).toMatchObject({ subTotal: 92400, total: 83160, creditsApplied: 0, amountDue: 83160 });
      expect(estimate.nextBilling).toEqual({ at: TERM_END, amount: 4000 + 9900, amountDue: 4000 + 9900 });
    });

    it("refuses an expired coupon and an unknown plan", async () => {
      const { id: customerId } = await newCustomer();
      const request = { customerId, planId: "core-monthly", planQuantity: 1 };
      // Refused alike; what the customer reads is the page's own message (the provider's words are for the log).
      await expect(billing.estimateNewSubscription({ ...request, couponIds: ["SPRING2024"] })).rejects.toEqual(
        failure({ kind: "final" }),
      );
      await expect(billing.estimateNewSubscription({ ...request, planId: "core-weekly" })).rejects.toEqual(
        failure({ kind: "final", code: "not_found" }),
      );
    });

    it("orders an add-on that is present or absent once, and refuses a quantity for it", async () => {
      const { id: customerId } = await newCustomer();
      const request = { customerId, planId: "core-monthly", planQuantity: 1 };
      const twice = [{ id: "gatekeeper-cloud-monthly", quantity: 2 }];
      await expect(billing.estimateNewSubscription({ ...request, addons: twice })).rejects.toEqual(
        failure({ kind: "final", code: "quantity_not_allowed" }),
      );
      const threePeople = [{ id: "training-web", quantity: 3 }];
      await expect(billing.estimateNewSubscription({ ...request, oneTimeAddons: threePeople })).rejects.toEqual(
        failure({ kind: "final", code: "quantity_not_allowed" }),
      );
      const once = await billing.estimateNewSubscription({
        ...request,
        addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
        oneTimeAddons: [{ id: "training-web", quantity: 1 }],
      });
      expect(lines(once)).toEqual([
        ["core-monthly", 1, 400, 400],
        ["gatekeeper-cloud-monthly", 1, 9900, 9900],
        ["training-web", 1, 15000, 15000],
      ]);
    });

    it("creates a subscription once per idempotency key, visible to its customer only", async () => {
      const { customerId, source, subscription: created } = await subscribed();
      expect(created).toEqual({
        id: created.id,
        customerId,
        planId: "core-monthly",
        planQuantity: 10,
        planUnitPrice: 400,
        status: "active",
        addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
        currentTermStart: TERM_START,
        currentTermEnd: TERM_END,
        nextBillingAt: TERM_END,
        paymentSourceId: source.id,
        autoCollection: true,
        shippingAddress: null,
        licenseAssignment: "Contract Clinics",
        cancelledAt: null,
        totalDues: 0,
        dueSince: null,
        resourceVersion: TERM_START.getTime(),
      });
      const repeat = await subscription(customerId, source.id);
      expect(repeat.id).toBe(created.id);
      expect(await billing.retrieveSubscription(customerId, created.id)).toEqual(created);
      const stranger = await newCustomer();
      await expect(billing.retrieveSubscription(stranger.id, created.id)).rejects.toEqual(
        failure({ kind: "final", code: "not_found" }),
      );
    });

    it("prorates added users for the rest of the term and credits the unused old term", async () => {
      const { customerId, subscription } = await subscribed();
      clock = MID_TERM;
      const estimate = await billing.estimateSubscriptionUpdate(customerId, subscription.id, {
        planId: "core-monthly",
        planQuantity: 15,
      });
      // Half the term is left: 15 x 400 x 1/2 for the users, 9900 x 1/2 for the cloud Hub (the unit
      // price stays the list price; the line's amount is prorated); the old 10 users and the cloud Hub
      // are credited for the same half.
      expect(lines(estimate)).toEqual([
        ["core-monthly", 15, 400, 3000],
        ["gatekeeper-cloud-monthly", 1, 9900, 4950],
      ]);
      expect(estimate.lineItems[0]).toMatchObject({ dateFrom: MID_TERM, dateTo: TERM_END });
      expect(estimate).toMatchObject({
        subTotal: 7950,
        total: 7950,
        creditsIssued: 2000 + 4950,
        creditsApplied: 2000 + 4950,
        amountDue: 1000,
        creditBalance: 0,
      });
      const renewal = 15 * 400 + 9900;
      expect(estimate.nextBilling).toEqual({ at: TERM_END, amount: renewal, amountDue: renewal });
    });

    it("prorates a higher tier with a coupon, and charges nothing for no change", async () => {
      const { customerId, subscription } = await subscribed();
      clock = MID_TERM;
      const upgrade = await billing.estimateSubscriptionUpdate(customerId, subscription.id, {
        planId: "advanced-monthly",
        planQuantity: 15,
        couponIds: ["WELCOME10"],
      });
      expect(upgrade.lineItems.map((line) => line.amount)).toEqual([15 * 300, 4950]);
      expect(upgrade.discounts.map((discount) => discount.amount)).toEqual([945]);
      expect(upgrade).toMatchObject({ subTotal: 9450, total: 8505, creditsApplied: 6950, amountDue: 1555 });
      expect(upgrade.nextBilling).toEqual({ at: TERM_END, amount: 15 * 600 + 9900, amountDue: 15 * 600 + 9900 });

      const unchanged = await billing.estimateSubscriptionUpdate(customerId, subscription.id, {
        planId: "core-monthly",
        planQuantity: 10,
      });
      expect(unchanged).toMatchObject({ lineItems: [], subTotal: 0, amountDue: 0 });
      expect(unchanged.nextBilling).toEqual({ at: TERM_END, amount: 4000 + 9900, amountDue: 4000 + 9900 });
    });

    it("starts a new term when the billing period changes to yearly", async () => {
      const { customerId, subscription } = await subscribed();
      clock = MID_TERM;
      const estimate = await billing.estimateSubscriptionUpdate(customerId, subscription.id, {
        planId: "core-yearly",
        planQuantity: 10,
        addons: [{ id: "gatekeeper-cloud-yearly", quantity: 1 }],
      });
      const yearLater = new Date("2027-04-16T00:00:00Z");
      expect(
        estimate.lineItems.map(({ entityId, amount, dateFrom, dateTo }) => [entityId, amount, dateFrom, dateTo]),
      ).toEqual([
        ["core-yearly", 38400, MID_TERM, yearLater],
        ["gatekeeper-cloud-yearly", 95040, MID_TERM, yearLater],
      ]);
      expect(estimate).toMatchObject({ subTotal: 133440, creditsApplied: 6950, amountDue: 126490 });
      expect(estimate.nextBilling).toEqual({ at: yearLater, amount: 133440, amountDue: 133440 });
    });

    it("rounds once per line over a 30-day term: 10 to 13 users with 10 days left", async () => {
      const { customerId, subscription } = await subscribed();
      clock = new Date("2026-04-21T00:00:00Z");
      const estimate = await billing.estimateSubscriptionUpdate(customerId, subscription.id, {
        planId: "core-monthly",
        planQuantity: 13,
      });
      // 13 x 400 x 10/30 = 1733.33 -> 1733 (per unit: 133 x 13 = 1729); cloud 9900 x 10/30 = 3300.
      expect(lines(estimate)).toEqual([
        ["core-monthly", 13, 400, 1733],
        ["gatekeeper-cloud-monthly", 1, 9900, 3300],
      ]);
      // Credits: 10 x 400 x 10/30 = 1333.33 -> 1333, and 3300.
      expect(estimate).toMatchObject({ subTotal: 5033, creditsApplied: 4633, amountDue: 400 });
    });

    it("keeps credits that exceed the invoice as the customer's balance and uses them on the next invoice", async () => {
      const { customerId, subscription } = await subscribed();
      clock = MID_TERM;
      const upgrade = { planId: "advanced-monthly", planQuantity: 15, couponIds: ["SAVE50"] };
      // Charges 4500 + 4950 = 9450, less $50 = 4450; credits 2000 + 4950 = 6950: 4450 used, 2500 kept.
      const estimate = await billing.estimateSubscriptionUpdate(customerId, subscription.id, upgrade);
      expect(estimate).toMatchObject({ total: 4450, creditsApplied: 4450, amountDue: 0, creditBalance: 2500 });
      expect(estimate.nextBilling).toEqual({ at: TERM_END, amount: 18900, amountDue: 16400 });
      await billing.updateSubscription(customerId, subscription.id, upgrade, `${subscription.id}:credits`);
      expect((await billing.retrieveCustomer(customerId)).creditBalance).toBe(2500);

      // The next change: 20 x 600 x 1/2 + 4950 = 10950, paid by the 4500 + 4950 it credits and the 2500 kept.
      const next = await billing.estimateSubscriptionUpdate(customerId, subscription.id, {
        planId: "advanced-monthly",
        planQuantity: 20,
      });
      expect(next).toMatchObject({ subTotal: 10950, creditsIssued: 9450, creditsApplied: 10950, creditBalance: 1000 });
      expect(next.nextBilling).toEqual({ at: TERM_END, amount: 21900, amountDue: 20900 });
    });

    it("renews a term that ended before estimating, and prorates against the new term", async () => {
      const { customerId, subscription } = await subscribed();
      // Ten days into May (a 31-day term): 21 of 31 days are left.
      clock = new Date("2026-05-11T00:00:00Z");
      const estimate = await billing.estimateSubscriptionUpdate(customerId, subscription.id, {
        planId: "core-monthly",
        planQuantity: 15,
      });
      const juneFirst = new Date("2026-06-01T00:00:00Z");
      // 15 x 400 x 21/31 = 4064.52 -> 4065; cloud 9900 x 21/31 = 6706.45 -> 6706; credits 2709.68 -> 2710 and 6706.
      expect(lines(estimate)).toEqual([
        ["core-monthly", 15, 400, 4065],
        ["gatekeeper-cloud-monthly", 1, 9900, 6706],
      ]);
      expect(estimate.lineItems[0]).toMatchObject({ dateFrom: clock, dateTo: juneFirst });
      expect(estimate).toMatchObject({ subTotal: 10771, creditsApplied: 9416, amountDue: 1355 });
      expect(estimate.nextBilling).toMatchObject({ at: juneFirst });
      expect(await billing.retrieveSubscription(customerId, subscription.id)).toMatchObject({
        currentTermStart: TERM_END,
        currentTermEnd: juneFirst,
      });
    });

    it("updates a subscription once per key, keeping the term", async () => {
      const { customerId, subscription } = await subscribed();
      clock = MID_TERM;
      const shippingAddress = {
        firstName: "Erin",
        lastName: "Contract",
        line1: "9 Dock Road",
        city: "Tacoma",
        zip: "98402",
      };
      const update = { planId: "advanced-monthly", planQuantity: 15, shippingAddress };
      const updated = await billing.updateSubscription(customerId, subscription.id, update, `${subscription.id}:up`);
      expect(updated).toMatchObject({
        planId: "advanced-monthly",
        planQuantity: 15,
        planUnitPrice: 600,
        addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
        currentTermStart: TERM_START,
        currentTermEnd: TERM_END,
        shippingAddress,
      });
      const repeat = await billing.updateSubscription(customerId, subscription.id, update, `${subscription.id}:up`);
      expect(repeat).toEqual(updated);
      const stranger = await newCustomer();
      await expect(billing.updateSubscription(stranger.id, subscription.id, update, "stranger:up")).rejects.toEqual(
        failure({ kind: "final", code: "not_found" }),
      );
    });

    it("lowers a renewal nobody paid by the unused part of its term, instead of crediting the customer", async () => {
      const { customerId, source, subscription } = await subscribed();
      await billing.deleteLocalPaymentSource(customerId, source.id);
      // Mid-May: May's renewal found no card and still asks for 4000 + 9900; 16 of May's 31 days are left.
      clock = new Date("2026-05-16T00:00:00Z");
      const change = { planId: "core-monthly", planQuantity: 15 };
      const estimate = await billing.estimateSubscriptionUpdate(customerId, subscription.id, change);
      // Charged: 15 x 400 x 16/31 = 3096.77 -> 3097 and 9900 x 16/31 = 5110. The unused part of the old items,
      // 4000 x 16/31 = 2065 and 5110, is taken off the unpaid renewal: no credit for a term nobody paid.
      expect(lines(estimate)).toEqual([
        ["core-monthly", 15, 400, 3097],
        ["gatekeeper-cloud-monthly", 1, 9900, 5110],
      ]);
      expect(estimate).toMatchObject({
        adjustments: 2065 + 5110,
        creditsIssued: 0,
        creditsApplied: 0,
        amountDue: 8207,
        creditBalance: 0,
      });

      const tmpToken = await tokenFor("4242 4242 4242 4242", `${customerId}:new-card-token`);
      const card = await billing.createPaymentSourceFromTempToken(
        { customerId, tmpToken, setAsPrimary: true },
        `${customerId}:new-card`,
      );
      await billing.overrideBillingProfile(customerId, subscription.id, {
        paymentSourceId: card.id,
        autoCollection: true,
      });
      await billing.updateSubscription(customerId, subscription.id, change, `${subscription.id}:after-unpaid`);
      expect((await billing.retrieveCustomer(customerId)).creditBalance).toBe(0);
    });

    it("overrides the subscription's billing profile with one of the customer's cards", async () => {
      const { customerId, source, subscription } = await subscribed();
      const changed = await billing.overrideBillingProfile(customerId, subscription.id, {
        paymentSourceId: source.id,
        autoCollection: false,
      });
      expect(changed).toMatchObject({ paymentSourceId: source.id, autoCollection: false });
      const stranger = await customerWithCard();
      await expect(
        billing.overrideBillingProfile(customerId, subscription.id, {
          paymentSourceId: stranger.source.id,
          autoCollection: true,
        }),
      ).rejects.toEqual(failure({ kind: "final", code: "not_found" }));
    });

    it("invoices hardware with its shipping line, once per key", async () => {
      const { customerId, source } = await customerWithCard();
      const order = {
        customerId,
        paymentSourceId: source.id,
        hardware: [
          { id: "halberd-rechargeable-token", quantity: 6 },
          { id: "usb-sensor", quantity: 5 },
        ],
      };
      const invoice = await billing.createHardwareInvoice(order, `${customerId}:hardware`);
      expect(lines(invoice)).toEqual([
        ["halberd-rechargeable-token", 6, 4500, 27000],
        ["usb-sensor", 5, 6000, 30000],
        // Eleven items ship in three boxes.
        ["gatekeeper-shipping", 1, 2250, 2250],
      ]);
      expect(invoice).toMatchObject({
        customerId,
        subscriptionId: null,
        status: "paid",
        total: 59250,
        amountPaid: 59250,
        amountDue: 0,
      });
      expect((await billing.createHardwareInvoice(order, `${customerId}:hardware`)).id).toBe(invoice.id);
      // What a job asks after an unknown outcome: the invoice the key made, for its customer only.
      expect(await billing.findInvoiceByKey(customerId, `${customerId}:hardware`)).toMatchObject({
        id: invoice.id,
        total: 59250,
      });
      expect(await billing.findInvoiceByKey(customerId, `${customerId}:never-sent`)).toBeNull();
      const stranger = await newCustomer();
      expect(await billing.findInvoiceByKey(stranger.id, `${customerId}:hardware`)).toBeNull();
      await expect(
        billing.createHardwareInvoice(
          { ...order, hardware: [{ id: "usb-sensor", quantity: 0 }] },
          `${customerId}:nothing`,
        ),
      ).rejects.toEqual(failure({ kind: "final" }));
    });

    // --- after checkout ----------------------------------------------------------------------------------

    /** The customer's events since `since`, oldest first, read page by page. */
    async function eventsOf(customerId: string, since = TERM_START, limit?: number): Promise<ProviderEvent[]> {
      const events: ProviderEvent[] = [];
      let pageToken: string | undefined;
      do {
        const page = await billing.listEvents({ since, limit, pageToken });
        events.push(...page.events);
        pageToken = page.nextPageToken ?? undefined;
      } while (pageToken);
      return events.filter((event) => event.customerId === customerId);
    }

    const typesOf = (events: ProviderEvent[]) => events.map((event) => [event.type, event.providerType]);

    /** The subscription now charges a card that saves but declines every charge (Stripe's 4000 0000 0000 0341). */
    async function decliningCardFor(customerId: string, subscriptionId: string) {
      const tmpToken = await tokenFor("4000 0000 0000 0341", `${customerId}:declining-token`);
      const card = await billing.createPaymentSourceFromTempToken(
        { customerId, tmpToken, setAsPrimary: true },
        `${customerId}:declining`,
      );
      await billing.overrideBillingProfile(customerId, subscriptionId, {
        paymentSourceId: card.id,
        autoCollection: true,
      });
      return card;
    }

    async function goodCardFor(customerId: string) {
      const tmpToken = await tokenFor("5555 5555 5555 4444", `${customerId}:good-token`);
      return billing.createPaymentSourceFromTempToken(
        { customerId, tmpToken, setAsPrimary: true },
        `${customerId}:good`,
      );
    }

    /** A subscription whose renewal on May 1 was declined; the clock stands at May 1. */
    async function declinedRenewal() {
      const { customerId, subscription } = await subscribed();
      const declining = await decliningCardFor(customerId, subscription.id);
      await subject.advanceClock(30);
      const [renewal] = await billing.listInvoices(customerId);
      return { customerId, subscription, declining, renewal };
    }

    it("renews at the end of the term as time passes: renewed, invoiced and paid, each version newer", async () => {
      const { customerId, subscription: created } = await subscribed();
      await subject.advanceClock(30);

      const renewed = await billing.retrieveSubscription(customerId, created.id);
      expect(renewed).toMatchObject({
        status: "active",
        currentTermStart: TERM_END,
        currentTermEnd: NEXT_TERM_END,
        nextBillingAt: NEXT_TERM_END,
        cancelledAt: null,
        totalDues: 0,
        dueSince: null,
      });
      const events = await eventsOf(customerId);
      expect(typesOf(events)).toEqual([
        ["payment_source_added", "payment_source_added"],
        ["subscription_created", "subscription_created"],
        ["invoice_generated", "invoice_generated"],
        ["invoice_paid", "payment_succeeded"],
        ["subscription_renewed", "subscription_renewed"],
        ["invoice_generated", "invoice_generated"],
        ["invoice_paid", "payment_succeeded"],
      ]);
      const [renewedEvent, generated, paid] = events.slice(4);
      expect(renewedEvent).toMatchObject({
        occurredAt: TERM_END,
        resourceType: "subscription",
        resourceId: created.id,
        resourceVersion: renewed.resourceVersion,
        customerId,
        subscription: { id: created.id, currentTermStart: TERM_END, currentTermEnd: NEXT_TERM_END },
        invoice: { id: generated.resourceId, purpose: "renewal" },
      });
      expect(paid).toMatchObject({
        occurredAt: TERM_END,
        resourceType: "invoice",
        resourceId: generated.resourceId,
        invoice: { purpose: "renewal", status: "paid", total: TERM_AMOUNT, amountPaid: TERM_AMOUNT, paidAt: TERM_END },
      });

      // Another month: a second renewal, and the subscription's versions keep growing.
      await subject.advanceClock(31);
      const versions = (await eventsOf(customerId))
        .filter((event) => event.resourceType === "subscription")
        .map((event) => event.resourceVersion ?? 0);
      expect(versions).toHaveLength(3);
      expect(versions[0]).toBe(created.resourceVersion);
      expect(versions[1]).toBeGreaterThan(versions[0]);
      expect(versions[2]).toBeGreaterThan(versions[1]);
    });

    it("retries a declined renewal on the dunning schedule, then gives up: not paid, the subscription cancelled", async () => {
      const { customerId, subscription, renewal } = await declinedRenewal();
      expect(renewal).toMatchObject({
        purpose: "renewal",
        status: "payment_due",
        total: TERM_AMOUNT,
        amountDue: TERM_AMOUNT,
        amountPaid: 0,
        paidAt: null,
        nextRetryAt: daysAfter(TERM_END, 1),
      });
      expect(await billing.retrieveSubscription(customerId, subscription.id)).toMatchObject({
        status: "active",
        currentTermEnd: NEXT_TERM_END,
        totalDues: TERM_AMOUNT,
        dueSince: TERM_END,
      });

      await subject.advanceClock(1);
      expect(await billing.retrieveInvoice(customerId, renewal.id)).toMatchObject({
        status: "payment_due",
        nextRetryAt: daysAfter(TERM_END, 3),
      });
      await subject.advanceClock(6);
      expect(await billing.retrieveInvoice(customerId, renewal.id)).toMatchObject({
        status: "not_paid",
        amountDue: TERM_AMOUNT,
        nextRetryAt: null,
      });
      const cancelled = await billing.retrieveSubscription(customerId, subscription.id);
      expect(cancelled).toMatchObject({
        status: "cancelled",
        cancelledAt: daysAfter(TERM_END, 7),
        nextBillingAt: null,
        totalDues: TERM_AMOUNT,
      });

      const events = await eventsOf(customerId, TERM_END);
      expect(events.map((event) => [event.type, event.occurredAt])).toEqual([
        ["subscription_renewed", TERM_END],
        ["invoice_generated", TERM_END],
        ["payment_failed", TERM_END],
        ["payment_failed", daysAfter(TERM_END, 1)],
        ["payment_failed", daysAfter(TERM_END, 3)],
        ["payment_failed", daysAfter(TERM_END, 7)],
        ["invoice_updated", daysAfter(TERM_END, 7)],
        ["subscription_cancelled", daysAfter(TERM_END, 7)],
      ]);
      expect(events.at(-1)).toMatchObject({ resourceVersion: cancelled.resourceVersion, subscription: cancelled });

      // A cancelled subscription renews no more.
      await subject.advanceClock(30);
      expect(await billing.listInvoices(customerId)).toHaveLength(2);
    });

    it("collects a failed renewal once per key with a card that pays; a declined card is told in the gateway's words", async () => {
      const { customerId, subscription, declining, renewal } = await declinedRenewal();
      await expect(billing.collectPayment(customerId, renewal.id, declining.id, `${renewal.id}:pay:1`)).rejects.toEqual(
        failure({ kind: "final", code: "payment_processing_failed", providerMessage: "Your card was declined." }),
      );
      expect(await billing.findInvoicePayment(customerId, renewal.id)).toBeNull();

      const card = await goodCardFor(customerId);
      const paid = await billing.collectPayment(customerId, renewal.id, card.id, `${renewal.id}:pay:2`);
      expect(paid).toMatchObject({
        id: renewal.id,
        status: "paid",
        amountPaid: TERM_AMOUNT,
        amountDue: 0,
        paidAt: TERM_END,
        nextRetryAt: null,
      });
      expect(paid.resourceVersion).toBeGreaterThan(renewal.resourceVersion);
      // The same key again (a double submit): the first payment, nothing charged again.
      expect(await billing.collectPayment(customerId, renewal.id, card.id, `${renewal.id}:pay:2`)).toEqual(paid);
      expect(await billing.findInvoicePayment(customerId, renewal.id)).toEqual(paid);
      // Another key: the invoice has nothing left to pay.
      await expect(billing.collectPayment(customerId, renewal.id, card.id, `${renewal.id}:pay:3`)).rejects.toEqual(
        failure({ kind: "final", code: "invalid_state_for_request" }),
      );
      const stranger = await customerWithCard();
      await expect(
        billing.collectPayment(stranger.customerId, renewal.id, stranger.source.id, `${renewal.id}:stranger`),
      ).rejects.toEqual(failure({ kind: "final", code: "not_found" }));
      await expect(billing.findInvoicePayment(stranger.customerId, renewal.id)).rejects.toEqual(
        failure({ kind: "final", code: "not_found" }),
      );

      // Paid, dunning stops: past its retries nothing more is tried, and the subscription stays.
      await subject.advanceClock(8);
      expect(await billing.retrieveSubscription(customerId, subscription.id)).toMatchObject({
        status: "active",
        totalDues: 0,
        dueSince: null,
      });
      const invoiceEvents = (await eventsOf(customerId, TERM_END)).filter((event) => event.resourceId === renewal.id);
      expect(invoiceEvents.map((event) => event.type)).toEqual([
        "invoice_generated",
        "payment_failed",
        "payment_failed",
        "invoice_paid",
      ]);
    });

    it("collects once after the answer was lost: the reconcile finds the invoice paid, and the key gets the same", async () => {
      const { customerId, renewal } = await declinedRenewal();
      const card = await goodCardFor(customerId);
      const key = `${renewal.id}:pay:lost`;
      await subject.loseNextAnswer({
        call: "collectPayment",
        method: "POST",
        path: `/api/v2/invoices/${renewal.id}/collect_payment`,
      });
      await expect(billing.collectPayment(customerId, renewal.id, card.id, key)).rejects.toEqual(
        failure({ kind: "unknown" }),
      );
      const found = await billing.findInvoicePayment(customerId, renewal.id);
      expect(found).toMatchObject({ id: renewal.id, status: "paid", amountPaid: TERM_AMOUNT, amountDue: 0 });
      expect(await billing.collectPayment(customerId, renewal.id, card.id, key)).toEqual(found);
      const payments = (await eventsOf(customerId, TERM_END)).filter(
        (event) => event.resourceId === renewal.id && event.type === "invoice_paid",
      );
      expect(payments).toHaveLength(1);
    });

    it("turns auto-renew off: nothing renews at the term's end, and the subscription is cancelled then", async () => {
      const { customerId, subscription } = await subscribed();
      clock = MID_TERM;
      const scheduled = await billing.cancelSubscriptionAtTermEnd(
        customerId,
        subscription.id,
        `${subscription.id}:off`,
      );
      expect(scheduled).toMatchObject({
        status: "non_renewing",
        cancelledAt: TERM_END,
        currentTermEnd: TERM_END,
        nextBillingAt: null,
      });
      expect(scheduled.resourceVersion).toBeGreaterThan(subscription.resourceVersion);
      // Again, with another key: already scheduled, nothing changes.
      expect(await billing.cancelSubscriptionAtTermEnd(customerId, subscription.id, `${subscription.id}:off2`)).toEqual(
        scheduled,
      );
      const stranger = await newCustomer();
      await expect(
        billing.cancelSubscriptionAtTermEnd(stranger.id, subscription.id, `${subscription.id}:stranger`),
      ).rejects.toEqual(failure({ kind: "final", code: "not_found" }));

      await subject.advanceClock(15);
      const cancelled = await billing.retrieveSubscription(customerId, subscription.id);
      expect(cancelled).toMatchObject({ status: "cancelled", cancelledAt: TERM_END, currentTermEnd: TERM_END });
      expect(await billing.listInvoices(customerId)).toHaveLength(1);
      expect(typesOf((await eventsOf(customerId)).slice(-2))).toEqual([
        ["subscription_cancellation_scheduled", "subscription_cancellation_scheduled"],
        ["subscription_cancelled", "subscription_cancelled"],
      ]);
      await expect(
        billing.removeScheduledCancellation(customerId, subscription.id, `${subscription.id}:too-late`),
      ).rejects.toEqual(failure({ kind: "final", code: "invalid_state_for_request" }));
    });

    it("turns auto-renew on again before the term ends: nothing charged then, and the subscription renews", async () => {
      const { customerId, subscription } = await subscribed();
      await billing.cancelSubscriptionAtTermEnd(customerId, subscription.id, `${subscription.id}:off`);
      const resumed = await billing.removeScheduledCancellation(customerId, subscription.id, `${subscription.id}:on`);
      expect(resumed).toMatchObject({ status: "active", cancelledAt: null, nextBillingAt: TERM_END });
      expect(await billing.listInvoices(customerId)).toHaveLength(1);
      expect(await billing.removeScheduledCancellation(customerId, subscription.id, `${subscription.id}:on2`)).toEqual(
        resumed,
      );

      await subject.advanceClock(30);
      expect(await billing.retrieveSubscription(customerId, subscription.id)).toMatchObject({
        status: "active",
        currentTermEnd: NEXT_TERM_END,
      });
      expect(typesOf(await eventsOf(customerId)).map(([type]) => type)).toEqual([
        "payment_source_added",
        "subscription_created",
        "invoice_generated",
        "invoice_paid",
        "subscription_cancellation_scheduled",
        "subscription_scheduled_cancellation_removed",
        "subscription_renewed",
        "invoice_generated",
        "invoice_paid",
      ]);
    });

    it("lists a customer's invoices newest first, says what each was for, and gives each as a PDF", async () => {
      const { customerId, source, subscription } = await subscribed();
      clock = MID_TERM;
      await billing.updateSubscription(
        customerId,
        subscription.id,
        { planId: "core-monthly", planQuantity: 15 },
        `${subscription.id}:users`,
      );
      await billing.createHardwareInvoice(
        { customerId, paymentSourceId: source.id, hardware: [{ id: "usb-sensor", quantity: 1 }] },
        `${customerId}:sensor`,
      );
      await subject.advanceClock(15);

      const invoices = await billing.listInvoices(customerId);
      expect(invoices.map((invoice) => [invoice.purpose, invoice.total, invoice.status])).toEqual([
        ["renewal", 15 * 400 + 9900, "paid"],
        ["one_time", 6000 + 750, "paid"],
        ["subscription_change", 3000 + 4950, "paid"],
        ["new_subscription", TERM_AMOUNT, "paid"],
      ]);
      expect(new Set(invoices.map((invoice) => invoice.number)).size).toBe(4);
      expect(
        (await billing.listInvoices(customerId, { subscriptionId: subscription.id })).map((invoice) => invoice.id),
      ).toEqual([invoices[0].id, invoices[2].id, invoices[3].id]);
      const [renewal] = invoices;
      expect(await billing.retrieveInvoice(customerId, renewal.id)).toEqual(renewal);

      const text = await pdfText(await pdfBytes(await billing.invoicePdf(customerId, renewal.id)));
      expect(text).toContain(renewal.number);
      expect(text).toContain(formatCents(15 * 400 + 9900));
      expect(text).toContain("Contract Clinics");
      expect(text).toContain("Core (Monthly Billing)");

      const stranger = await newCustomer();
      await expect(billing.retrieveInvoice(stranger.id, renewal.id)).rejects.toEqual(
        failure({ kind: "final", code: "not_found" }),
      );
      await expect(billing.invoicePdf(stranger.id, renewal.id)).rejects.toEqual(
        failure({ kind: "final", code: "not_found" }),
      );
      expect(await billing.listInvoices(stranger.id)).toEqual([]);
    });

    describe("VAT numbers and issued invoices", () => {
      const GERMAN_ADDRESS = {
        firstName: "Erin",
        lastName: "Contract",
        line1: "Hauptstraße 5",
        city: "Köln",
        zip: "50667",
        country: "DE",
      };

      /** A German business with a VAT number the register found valid, and its first invoice. */
      async function germanBusiness() {
        const { customerId, source } = await customerWithCard();
        const info = { billingAddress: GERMAN_ADDRESS, vatNumber: "DE136695976", vatNumberStatus: "valid" as const };
        await billing.updateBillingInfo(customerId, info);
        await subscription(customerId, source.id);
        const [invoice] = await billing.listInvoices(customerId);
        return { customerId, invoice };
      }

      it("keeps the VAT number with every save of the billing fields, and removes it only when told", async () => {
        const { id } = await newCustomer();
        const info = { billingAddress: GERMAN_ADDRESS, vatNumber: "DE136695976", vatNumberStatus: "valid" as const };
        expect(await billing.updateBillingInfo(id, info)).toMatchObject({ vatNumber: "DE136695976" });
        await billing.updateCustomer(id, { ...PROFILE, company: "Contract Praxis GmbH" });
        const moved = { ...info, billingAddress: { ...GERMAN_ADDRESS, line1: "Domplatz 1" } };
        expect(await billing.updateBillingInfo(id, moved)).toMatchObject({
          vatNumber: "DE136695976",
          billingAddress: { line1: "Domplatz 1" },
        });
        expect((await billing.retrieveCustomer(id)).vatNumber).toBe("DE136695976");
        const removed = { billingAddress: GERMAN_ADDRESS, vatNumber: null, vatNumberStatus: "unchecked" as const };
        expect((await billing.updateBillingInfo(id, removed)).vatNumber).toBeNull();
      });

      it("names the buyer on the invoice as of its issue: a later change of the profile leaves it", async () => {
        const { customerId, invoice } = await germanBusiness();
        expect(invoice.billedTo).toMatchObject({
          name: "Contract Clinics",
          vatNumber: "DE136695976",
          address: { line1: "Hauptstraße 5", country: "DE" },
        });
        await billing.updateCustomer(customerId, { ...PROFILE, company: "Renamed Clinics" });
        await billing.updateBillingInfo(customerId, {
          billingAddress: { ...GERMAN_ADDRESS, line1: "Ringstraße 9" },
          vatNumber: null,
          vatNumberStatus: "unchecked",
        });
        expect((await billing.retrieveInvoice(customerId, invoice.id)).billedTo).toMatchObject({
          name: "Contract Clinics",
          vatNumber: "DE136695976",
          address: { line1: "Hauptstraße 5" },
        });
        const text = await pdfText(await pdfBytes(await billing.invoicePdf(customerId, invoice.id)));
        expect(text).toContain("Contract Clinics");
        expect(text).toContain("DE136695976");
        expect(text).not.toContain("Renamed Clinics");
      });

      it("corrects an issued invoice under its number, and tells of it as an invoice event", async () => {
        const { customerId, invoice } = await germanBusiness();
        clock = MID_TERM;
        const corrected = await billing.correctInvoice(
          customerId,
          invoice.id,
          {
            company: "Contract Praxis GmbH",
            billingAddress: { ...GERMAN_ADDRESS, line1: "Domplatz 1" },
            vatNumber: "DE136695976",
            vatNumberStatus: "valid",
            poNumber: "PO-2027-14",
          },
          `${invoice.id}:correct`,
        );
        expect(corrected).toMatchObject({
          id: invoice.id,
          number: invoice.number,
          total: invoice.total,
          status: invoice.status,
          poNumber: "PO-2027-14",
          billedTo: { name: "Contract Praxis GmbH", address: { line1: "Domplatz 1" } },
        });
        expect(corrected.resourceVersion).toBeGreaterThan(invoice.resourceVersion);
        expect(await billing.retrieveInvoice(customerId, invoice.id)).toEqual(corrected);
        const text = await pdfText(await pdfBytes(await billing.invoicePdf(customerId, invoice.id)));
        expect(text).toContain("Contract Praxis GmbH");
        expect(text).toContain("Domplatz 1");
        expect(text).toContain("PO-2027-14");
        const events = await eventsOf(customerId, MID_TERM);
        expect(events.map((event) => [event.type, event.invoice?.id, event.invoice?.poNumber])).toContainEqual([
          "invoice_updated",
          invoice.id,
          "PO-2027-14",
        ]);
      });

      it("refuses to change an issued invoice's country: that needs a credit note", async () => {
        const { customerId, invoice } = await germanBusiness();
        await expect(
          billing.correctInvoice(
            customerId,
            invoice.id,
            {
              company: "Contract Clinics",
              billingAddress: { ...GERMAN_ADDRESS, city: "Wien", zip: "1010", country: "AT" },
              vatNumber: null,
              vatNumberStatus: "unchecked",
              poNumber: null,
            },
            `${invoice.id}:to-austria`,
          ),
        ).rejects.toEqual(failure({ kind: "final", code: "credit_note_required" }));
        expect((await billing.retrieveInvoice(customerId, invoice.id)).billedTo).toMatchObject({
          address: { country: "DE" },
        });
        const stranger = await newCustomer();
        await expect(
          billing.correctInvoice(
            stranger.id,
            invoice.id,
            {
              company: "Stranger",
              billingAddress: GERMAN_ADDRESS,
              vatNumber: null,
              vatNumberStatus: "unchecked",
              poNumber: null,
            },
            `${invoice.id}:stranger`,
          ),
        ).rejects.toEqual(failure({ kind: "final", code: "not_found" }));
      });

      it("prints the subscription's purchase order number on its invoices", async () => {
        const { customerId, source } = await customerWithCard();
        const made = await billing.createSubscription(
          {
            customerId,
            planId: "core-monthly",
            planQuantity: 10,
            startDate: TERM_START,
            paymentSourceId: source.id,
            licenseAssignment: "Contract Clinics",
            poNumber: "PO-55",
          },
          `${customerId}:subscribe-po`,
        );
        const [first] = await billing.listInvoices(customerId, { subscriptionId: made.id });
        expect(first.poNumber).toBe("PO-55");
        await billing.updateSubscription(
          customerId,
          made.id,
          { planId: "core-monthly", planQuantity: 12, poNumber: "PO-56" },
          `${made.id}:more-users-po`,
        );
        const [change] = await billing.listInvoices(customerId, { subscriptionId: made.id });
        expect(change).toMatchObject({ purpose: "subscription_change", poNumber: "PO-56" });
      });
    });

    describe("payment intents: a card whose bank asks on every payment (3-D Secure)", () => {
      const HOUR = 60 * 60 * 1000;
      /** One USB sensor and its box: what the hardware orders below charge. */
      const SENSOR = [{ id: "usb-sensor", quantity: 1 }];
      const SENSOR_AMOUNT = 6000 + 750;

      /** A customer whose card asks (Stripe's 4000 0027 6000 3184), saved once the cardholder authenticated it. */
      async function customerWithAskingCard() {
        const customer = await newCustomer();
        const tmpToken = await authenticatedTokenOf(
          cards,
          cardForm("4000 0027 6000 3184"),
          { firstName: "Erin", lastName: "Contract" },
          `${customer.id}:asking-token`,
        );
        const source = await billing.createPaymentSourceFromTempToken(
          { customerId: customer.id, tmpToken, setAsPrimary: true },
          `${customer.id}:asking`,
        );
        return { customerId: customer.id, source };
      }

      const intentFor = (customerId: string, paymentSourceId: string, amount: number, key: string) =>
        billing.createPaymentIntent({ customerId, paymentSourceId, amount, returnUrl: "/store/orders/job_1" }, key);

      /** The sensor order to the card, with the payment intent when given. */
      const sensorOrder = (customerId: string, paymentSourceId: string, paymentIntentId?: string) => ({
        customerId,
        paymentSourceId,
        hardware: SENSOR,
        paymentIntentId,
      });

      async function authorizedIntent(amount = SENSOR_AMOUNT) {
        const { customerId, source } = await customerWithAskingCard();
        const intent = await intentFor(customerId, source.id, amount, `${customerId}:intent`);
        await subject.answerBank(intent.id, "complete");
        return { customerId, source, intent };
      }

      it("refuses the charge without one, then charges once with the intent the cardholder authorized", async () => {
        const { customerId, source } = await customerWithAskingCard();
        // One key for the order's charge, as a job's step keeps: without an intent first, then with it.
        const key = `${customerId}:sensor`;
        await expect(billing.createHardwareInvoice(sensorOrder(customerId, source.id), key)).rejects.toEqual(
          failure({ kind: "final", code: AUTHENTICATION_REQUIRED }),
        );
        expect(await billing.findInvoiceByKey(customerId, key)).toBeNull();

        const intent = await intentFor(customerId, source.id, SENSOR_AMOUNT, `${customerId}:intent`);
        expect(intent).toMatchObject({
          status: "requires_action",
          amount: SENSOR_AMOUNT,
          paymentSourceId: source.id,
          failure: null,
        });
        expect(intent.redirectUrl).toMatch(/^\//);
        // The same key again (a rerun of the job's step): the same intent.
        expect((await intentFor(customerId, source.id, SENSOR_AMOUNT, `${customerId}:intent`)).id).toBe(intent.id);
        const stranger = await newCustomer();
        await expect(billing.retrievePaymentIntent(stranger.id, intent.id)).rejects.toEqual(
          failure({ kind: "final", code: "not_found" }),
        );

        await subject.answerBank(intent.id, "complete");
        expect(await billing.retrievePaymentIntent(customerId, intent.id)).toMatchObject({
          id: intent.id,
          status: "authorized",
          paymentSourceId: source.id,
        });
        const invoice = await billing.createHardwareInvoice(sensorOrder(customerId, source.id, intent.id), key);
        expect(invoice).toMatchObject({ status: "paid", total: SENSOR_AMOUNT, amountPaid: SENSOR_AMOUNT });
        expect(await billing.retrievePaymentIntent(customerId, intent.id)).toMatchObject({ status: "consumed" });
        // The same call again (a double submit): the first invoice, nothing charged again; found by the key.
        expect((await billing.createHardwareInvoice(sensorOrder(customerId, source.id, intent.id), key)).id).toBe(
          invoice.id,
        );
        expect(await billing.findInvoiceByKey(customerId, key)).toMatchObject({ id: invoice.id });
        expect(await billing.listInvoices(customerId)).toHaveLength(1);
      });

      it("refuses a second charge with an intent already spent: nothing is charged twice", async () => {
        const { customerId, source, intent } = await authorizedIntent();
        await billing.createHardwareInvoice(sensorOrder(customerId, source.id, intent.id), `${customerId}:sensor:1`);
        await expect(
          billing.createHardwareInvoice(sensorOrder(customerId, source.id, intent.id), `${customerId}:sensor:2`),
        ).rejects.toEqual(failure({ kind: "final", code: PAYMENT_INTENT_INVALID }));
        expect(await billing.listInvoices(customerId)).toHaveLength(1);
      });

      it("expires an intent an hour after it was made, authorized or not: its charge is refused as expired", async () => {
        const { customerId, source, intent } = await authorizedIntent();
        clock = new Date(clock.getTime() + HOUR + 1000);
        expect(await billing.retrievePaymentIntent(customerId, intent.id)).toMatchObject({
          status: "expired",
          failure: PAYMENT_INTENT_EXPIRED_MESSAGE,
        });
        await expect(
          billing.createHardwareInvoice(sensorOrder(customerId, source.id, intent.id), `${customerId}:sensor`),
        ).rejects.toEqual(failure({ kind: "final", code: PAYMENT_INTENT_EXPIRED }));
        expect(await billing.listInvoices(customerId)).toEqual([]);
      });

      it("says a failed authentication in the gateway's words, and its intent pays nothing", async () => {
        const { customerId, source } = await customerWithAskingCard();
        const intent = await intentFor(customerId, source.id, SENSOR_AMOUNT, `${customerId}:intent`);
        await subject.answerBank(intent.id, "fail");
        const failed = await billing.retrievePaymentIntent(customerId, intent.id);
        expect(failed).toMatchObject({ status: "failed", failure: expect.any(String) as string });
        await expect(
          billing.createHardwareInvoice(sensorOrder(customerId, source.id, intent.id), `${customerId}:sensor`),
        ).rejects.toEqual(failure({ kind: "final", code: PAYMENT_INTENT_INVALID }));
        expect(await billing.listInvoices(customerId)).toEqual([]);
      });

      it("refuses an intent the cardholder never answered, one of another amount, and another customer's", async () => {
        const { customerId, source } = await customerWithAskingCard();
        const unanswered = await intentFor(customerId, source.id, SENSOR_AMOUNT, `${customerId}:unanswered`);
        await expect(
          billing.createHardwareInvoice(sensorOrder(customerId, source.id, unanswered.id), `${customerId}:sensor:1`),
        ).rejects.toEqual(failure({ kind: "final", code: PAYMENT_INTENT_INVALID }));

        const cheaper = await intentFor(customerId, source.id, SENSOR_AMOUNT - 1, `${customerId}:cheaper`);
        await subject.answerBank(cheaper.id, "complete");
        await expect(
          billing.createHardwareInvoice(sensorOrder(customerId, source.id, cheaper.id), `${customerId}:sensor:2`),
        ).rejects.toEqual(failure({ kind: "final", code: PAYMENT_INTENT_INVALID }));
        // Refused, it is not spent.
        expect(await billing.retrievePaymentIntent(customerId, cheaper.id)).toMatchObject({ status: "authorized" });

        const other = await authorizedIntent();
        await expect(
          billing.createHardwareInvoice(sensorOrder(customerId, source.id, other.intent.id), `${customerId}:sensor:3`),
        ).rejects.toEqual(failure({ kind: "final" }));
        expect(await billing.listInvoices(customerId)).toEqual([]);
        expect(await billing.retrievePaymentIntent(other.customerId, other.intent.id)).toMatchObject({
          status: "authorized",
        });
      });

      it("pays a new subscription, its change and Pay now of its renewal each with an intent of the amount due", async () => {
        const { customerId, source } = await customerWithAskingCard();
        const order = {
          customerId,
          planId: "core-monthly",
          planQuantity: 10,
          startDate: TERM_START,
          addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
          paymentSourceId: source.id,
          licenseAssignment: "Contract Clinics",
        };
        await expect(billing.createSubscription(order, `${customerId}:subscribe`)).rejects.toEqual(
          failure({ kind: "final", code: AUTHENTICATION_REQUIRED }),
        );
        const first = await intentFor(customerId, source.id, TERM_AMOUNT, `${customerId}:intent:subscribe`);
        await subject.answerBank(first.id, "complete");
        const made = await billing.createSubscription(
          { ...order, paymentIntentId: first.id },
          `${customerId}:subscribe`,
        );
        expect(await billing.findSubscriptionByKey(customerId, `${customerId}:subscribe`)).toMatchObject({
          id: made.id,
        });
        expect(await billing.listInvoices(customerId)).toMatchObject([{ status: "paid", amountPaid: TERM_AMOUNT }]);

        clock = MID_TERM;
        const change = { planId: "core-monthly", planQuantity: 12 };
        const { amountDue } = await billing.estimateSubscriptionUpdate(customerId, made.id, change);
        await expect(
          billing.updateSubscription(customerId, made.id, change, `${customerId}:more-users`),
        ).rejects.toEqual(failure({ kind: "final", code: AUTHENTICATION_REQUIRED }));
        const second = await intentFor(customerId, source.id, amountDue, `${customerId}:intent:more-users`);
        await subject.answerBank(second.id, "complete");
        await billing.updateSubscription(
          customerId,
          made.id,
          { ...change, paymentIntentId: second.id },
          `${customerId}:more-users`,
        );
        expect(await billing.retrievePaymentIntent(customerId, second.id)).toMatchObject({ status: "consumed" });

        // The renewal is charged without the cardholder: the bank's question fails it, and Pay now asks them.
        clock = TERM_START;
        await subject.advanceClock(30);
        const [renewal] = await billing.listInvoices(customerId);
        expect(renewal).toMatchObject({ purpose: "renewal", status: "payment_due" });
        await expect(billing.collectPayment(customerId, renewal.id, source.id, `${renewal.id}:pay`)).rejects.toEqual(
          failure({ kind: "final", code: AUTHENTICATION_REQUIRED }),
        );
        const third = await intentFor(customerId, source.id, renewal.amountDue, `${renewal.id}:intent`);
        await subject.answerBank(third.id, "complete");
        const paid = await billing.collectPayment(customerId, renewal.id, source.id, `${renewal.id}:pay`, third.id);
        expect(paid).toMatchObject({ id: renewal.id, status: "paid", amountDue: 0, amountPaid: renewal.amountDue });
        expect(await billing.retrievePaymentIntent(customerId, third.id)).toMatchObject({ status: "consumed" });
      });
    });

    it("pages the events list oldest first, from a point in time", async () => {
      const { customerId } = await subscribed();
      await subject.advanceClock(30);
      const whole = await eventsOf(customerId);
      const paged = await eventsOf(customerId, TERM_START, 2);
      expect(paged).toEqual(whole);
      expect(whole).toHaveLength(7);
      expect(new Set(whole.map((event) => event.id)).size).toBe(7);
      const times = whole.map((event) => event.occurredAt.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));

      const page = await billing.listEvents({ since: TERM_START, limit: 2 });
      expect(page.events).toHaveLength(2);
      expect(page.nextPageToken).not.toBeNull();
      // From the renewal on: the events of the first term are before it.
      expect(typesOf(await eventsOf(customerId, TERM_END)).map(([type]) => type)).toEqual([
        "subscription_renewed",
        "invoice_generated",
        "invoice_paid",
      ]);
      await expect(billing.listEvents({ since: TERM_START, limit: 101 })).rejects.toEqual(failure({ kind: "final" }));
    });
  });
}
