import { describe, expect, it, vi } from "vitest";
import { couponCodeSchema, isCouponCode } from "~/domain/pricing";
import { addCardFor } from "~/server/account-billing/billing-details.server";
import { withInputChecks } from "~/server/billing/input-checks.server";
import { createLocalBilling } from "~/server/billing/local/engine.server";
import { addCard, type CardForm } from "~/server/account-billing/payment-methods.server";
import { getBilling, ProviderError } from "~/server/billing/index.server";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { idempotencyKeyOf } from "~/server/platform/forms.server";
import { db } from "~/server/platform/database/db.server";
import { applyCoupon } from "~/server/orders/coupons.server";
import { subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { memberByEmail } from "../support/members";

describe("coupon codes", () => {
  it("accept the catalogue's codes and refuse anything that could change a provider's request path", () => {
    for (const code of ["WELCOME10", "SAVE50", "REF-CUSTOMER", "a_b-1"]) expect(isCouponCode(code), code).toBe(true);
    for (const code of ["", "../customers/x", "A/B", "A?B=1", "A%2F", "A B", "A.B", "-A", "x".repeat(51), "ä"]) {
      expect(isCouponCode(code), code).toBe(false);
    }
    expect(couponCodeSchema.safeParse("A/B").error?.issues[0].message).toBe("Invalid coupon code.");
  });

  it("are checked in the billing port's call path, so no provider sees a malformed one", async () => {
    const inner = createLocalBilling({ store: db });
    const retrieveCoupon = vi.spyOn(inner, "retrieveCoupon");
    const estimate = vi.spyOn(inner, "estimateNewSubscription");
    const guarded = withInputChecks(inner);
    await expect(guarded.retrieveCoupon("../../customers")).rejects.toMatchObject({ kind: "final", code: "not_found" });
    await expect(
      guarded.estimateNewSubscription({
        customerId: "c",
        planId: "p",
        planQuantity: 1,
        couponIds: ["WELCOME10", "x/y"],
      }),
    ).rejects.toBeInstanceOf(ProviderError);
    expect(retrieveCoupon).not.toHaveBeenCalled();
    expect(estimate).not.toHaveBeenCalled();
    expect((await guarded.retrieveCoupon("WELCOME10")).id).toBe("WELCOME10");
    expect(guarded.name).toBe("local");
    // The configured provider is the guarded one.
    await expect(getBilling().retrieveCoupon("a b")).rejects.toMatchObject({ code: "not_found" });
  });
});

function card(number: string): CardForm {
  const form = new FormData();
  form.set("card_number", number);
  form.set("card_expiry", "09 / 31");
  form.set("card_cvc", "123");
  return {
    form,
    holder: { firstName: "Pat", lastName: "Cardholder", addressLine1: "1 Main", city: "Reno" },
    setAsPrimary: true,
    returnUrl: "/account/cards/return",
    cancelUrl: "/account",
  };
}

describe("cards", () => {
  it("namespace idempotency keys per customer: one form key used by two customers adds a card for each", async () => {
    const providers = { billing: createLocalBilling({ store: db }), cards: createLocalCards({ store: db }) };
    for (const id of ["cust_ns_a", "cust_ns_b"]) {
      await providers.billing.ensureCustomer(
        id,
        { firstName: "P", lastName: "C", email: "p@example.org", phone: "", company: "" },
        `${id}:c`,
      );
    }
    const first = await addCard("cust_ns_a", card("4242 4242 4242 4242"), "shared-key", providers);
    const second = await addCard("cust_ns_b", card("4242 4242 4242 4242"), "shared-key", providers);
    if (first.status !== "saved" || second.status !== "saved") throw new Error("A test card waits for the bank.");
    expect(second.source.id).not.toBe(first.source.id);
    const sources = await providers.billing.listPaymentSources("cust_ns_b");
    expect(sources.map((source) => source.id)).toEqual([second.source.id]);
  });

  it("keep the one-card limit when two tabs add at once", async () => {
    const member = await memberByEmail("admin@example.com");
    const input = {
      first_name: "Alex",
      last_name: "Morgan",
      address_line1: "1 Harbour Way",
      address_line2: "",
      address_city: "Seattle",
      address_state: "WA",
      address_zip: "98101",
      address_country: "US",
      set_as_primary: true,
      card_number: "4242 4242 4242 4242",
      card_setup: "",
    };
    const results = await Promise.allSettled([
      addCardFor(member, card("4242 4242 4242 4242").form, input, crypto.randomUUID(), "/account"),
      addCardFor(member, card("4242 4242 4242 4242").form, input, crypto.randomUUID(), "/account"),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const customerId = (await memberByEmail("admin@example.com")).organization.billingCustomerId ?? "";
    expect(await getBilling().listPaymentSources(customerId)).toHaveLength(1);
  });
});

describe("what a form may say", () => {
  it("takes a card form's idempotency key only in the shape the server gives it", () => {
    const form = (key: string) => {
      const data = new FormData();
      data.set("idempotency_key", key);
      return data;
    };
    const issued = crypto.randomUUID();
    expect(idempotencyKeyOf(form(issued))).toBe(issued);
    for (const key of ["cust_demo_customer:abc", "x", "../", `${issued}:source`]) {
      const used = idempotencyKeyOf(form(key));
      expect(used).not.toBe(key);
      expect(used).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("rate-limits coupon Apply per organization", async () => {
    const member = await memberByEmail("distributor@example.com");
    const answers = [];
    for (let attempt = 0; attempt < 11; attempt += 1)
      answers.push(await applyCoupon(member, subscriptionWizard, "NOPE"));
    expect(answers.slice(0, 10)).toEqual(Array(10).fill("Invalid coupon code."));
    expect(answers[10]).toMatch(/^Too many coupon attempts\. Please wait \d+ minutes? and try again\.$/);
  });
});
