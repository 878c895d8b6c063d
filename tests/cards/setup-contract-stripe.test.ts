import { createStripeCards } from "~/server/cards/stripe/adapter.server";
import { setupRequest } from "../support/card-tokens";
import { FAKE_STRIPE_KEY, FAKE_PUBLISHABLE_KEY, startStripeFake, type TestPaymentMethod } from "../fakes/stripe";
import { cardSetupContract, type TestCard } from "./setup-contract";

const PAYMENT_METHODS: Record<TestCard, TestPaymentMethod> = {
  saved: "pm_card_visa",
  asks: "pm_card_authenticationRequired",
  declined: "pm_card_chargeDeclined",
};

cardSetupContract("Stripe (SetupIntents through Stripe.js)", async () => {
  const fake = await startStripeFake();
  const cards = createStripeCards({
    secretKey: FAKE_STRIPE_KEY,
    publishableKey: FAKE_PUBLISHABLE_KEY,
    publicUrl: "https://portal.example.com",
    endpoint: { protocol: "http", host: "127.0.0.1", port: fake.port },
    maxNetworkRetries: 0,
  });
  const owner = { billingCustomerId: "cust_contract", gatewayCustomer: null };
  const returnUrl = "/account/cards/return";
  /** One rendered card page per form: its SetupIntent, confirmed by Stripe.js once, as the page does. */
  const pages = new Map<string, string>();
  return {
    cards,
    owner,
    async enterCard(card, formKey) {
      let setupIntent = pages.get(formKey);
      if (!setupIntent) {
        const entry = await cards.entryFor({ owner: () => Promise.resolve(owner), returnUrl }, formKey);
        if (entry.mode !== "stripe") throw new Error("Stripe's card entry is its element");
        const confirmed = await fake.confirmInBrowser(entry.clientSecret, PAYMENT_METHODS[card], entry.returnUrl);
        setupIntent = entry.clientSecret.split("_secret_")[0];
        pages.set(formKey, setupIntent);
        expect(confirmed.status).toBe(card === "declined" ? 402 : 200);
      }
      const form = new FormData();
      form.set("card_setup", setupIntent);
      const request = { ...setupRequest(form, { firstName: "Sam", lastName: "Holder" }), returnUrl };
      return cards.setUpCard({ ...request, owner: () => Promise.resolve(owner) }, formKey);
    },
    async answerBank(setupId, answer) {
      fake.answerBank(setupId, answer);
      return Promise.resolve();
    },
    async lastFourOf(setup) {
      if (!("paymentMethod" in setup)) throw new Error("Stripe saves a payment method");
      const method = fake.paymentMethod(setup.paymentMethod.id);
      // The card is attached to the customer the billing provider charges.
      expect(method?.customer).toBe(setup.paymentMethod.gatewayCustomer);
      return Promise.resolve(method?.card.last4 ?? "");
    },
    close: async () => {
      expect(fake.shapeErrors).toEqual([]);
      await fake.close();
    },
  };
});
