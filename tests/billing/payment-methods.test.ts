import {
  addCard,
  finishCardSetup,
  replaceCard,
  type CardForm,
  type CardSave,
} from "~/server/account-billing/payment-methods.server";
import { answerSetup, gatewayCustomerFor } from "~/server/providers/card-vault.server";
import type { CardOwner, CardProvider } from "~/server/cards/port.server";
import { tokenOf } from "../support/card-tokens";
import { CARD_MESSAGES } from "~/server/providers/test-cards.server";
import { createLocalBilling } from "~/server/billing/local/engine.server";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { db } from "~/server/platform/database/db.server";

/** Adding and replacing a card across the card and billing ports, on the embedded providers. */
const providers = { billing: createLocalBilling({ store: db }), cards: createLocalCards({ store: db }) };
const { billing } = providers;

function card(number: string, setAsPrimary = true): CardForm {
  const form = new FormData();
  form.set("card_number", number);
  form.set("card_expiry", "09 / 31");
  form.set("card_cvc", number.startsWith("3") ? "1234" : "123");
  return {
    form,
    holder: { firstName: "Pat", lastName: "Cardholder", addressLine1: "1 Main", city: "Reno" },
    setAsPrimary,
    returnUrl: "/account/cards/return",
    cancelUrl: "/account",
  };
}

function saved(save: CardSave) {
  if (save.status !== "saved") throw new Error(`not saved: ${save.status}`);
  return save.source;
}

function waiting(save: CardSave) {
  if (save.status !== "requires_action") throw new Error(`not waiting: ${save.status}`);
  return save;
}

/** The cardholder answers the bank's page; the setup as the return from it reads it. */
async function answer(setupId: string, outcome: "complete" | "fail") {
  await answerSetup(db, setupId, outcome);
  return providers.cards.setupOutcome(setupId);
}

async function customer(id: string) {
  await billing.ensureCustomer(
    id,
    { firstName: "Pat", lastName: "Cardholder", email: "pat@example.org", phone: "", company: "P" },
    `${id}:c`,
  );
  return id;
}

describe("adding a card", () => {
  it("adds one card for a form submitted twice", async () => {
    const id = await customer("cust_add");
    const first = saved(await addCard(id, card("4242 4242 4242 4242"), "form-1", providers));
    const again = saved(await addCard(id, card("4242 4242 4242 4242"), "form-1", providers));
    expect(again.id).toBe(first.id);
    expect(first.card).toMatchObject({
      brand: "visa",
      last4: "4242",
      firstName: "Pat",
      expiryMonth: 9,
      expiryYear: 2031,
    });
    expect(await billing.listPaymentSources(id)).toHaveLength(1);
    expect((await billing.retrieveCustomer(id)).primaryPaymentSourceId).toBe(first.id);
  });

  it("reports a declined card on the card field with the provider's message", async () => {
    const id = await customer("cust_declined");
    await expect(addCard(id, card("4000 0000 0000 0002"), "form-2", providers)).rejects.toMatchObject({
      name: "CardError",
      kind: "final",
      field: "card",
      providerMessage: "Your card was declined.",
    });
    expect(await billing.listPaymentSources(id)).toEqual([]);
  });
});

describe("replacing a card", () => {
  it("puts the new card in place of the old one, as the primary", async () => {
    const id = await customer("cust_replace");
    const old = saved(await addCard(id, card("4242 4242 4242 4242"), "replace:add", providers));
    const replacement = saved(await replaceCard(id, old.id, card("5555 5555 5555 4444"), "replace:1", providers));
    expect(replacement.card).toMatchObject({ brand: "mastercard", last4: "4444" });
    // The same gateway customer keeps the card, as Chargebee and Stripe do.
    expect(replacement.referenceId.split("/")[0]).toBe(old.referenceId.split("/")[0]);
    expect((await billing.listPaymentSources(id)).map((source) => source.id)).toEqual([replacement.id]);
    expect((await billing.retrieveCustomer(id)).primaryPaymentSourceId).toBe(replacement.id);
  });

  it("finishes a replacement that failed part-way without a second card", async () => {
    const id = await customer("cust_retry");
    const old = saved(await addCard(id, card("4242 4242 4242 4242"), "retry:add", providers));
    const losesDelete = new Proxy(billing, {
      get: (target, call, receiver) =>
        call === "deleteLocalPaymentSource"
          ? () => Promise.reject(new Error("lost"))
          : Reflect.get(target, call, receiver),
    });
    const failing = { ...providers, billing: losesDelete };
    await expect(replaceCard(id, old.id, card("3782 822463 10005"), "retry:1", failing)).rejects.toThrow("lost");
    const replacement = saved(await replaceCard(id, old.id, card("3782 822463 10005"), "retry:1", providers));
    expect((await billing.listPaymentSources(id)).map((source) => source.id)).toEqual([replacement.id]);
  });

  it("refuses a card that is not the customer's", async () => {
    const id = await customer("cust_not_mine");
    const stranger = await customer("cust_stranger");
    const theirs = saved(await addCard(stranger, card("4242 4242 4242 4242"), "stranger:add", providers));
    await expect(replaceCard(id, theirs.id, card("4242 4242 4242 4242"), "not-mine", providers)).rejects.toMatchObject({
      code: "not_found",
    });
  });
});

describe("saving a card whose bank asks the cardholder to authenticate it", () => {
  it("waits for the bank's page, then adds the card once", async () => {
    const id = await customer("cust_3ds_add");
    const setup = waiting(await addCard(id, card("4000 0027 6000 3184"), "3ds-add", providers));
    expect(await billing.listPaymentSources(id)).toEqual([]);
    const outcome = await answer(setup.setupId, "complete");
    const use = { replaces: null, setAsPrimary: true };
    const source = saved(await finishCardSetup(id, setup.setupId, outcome, use, providers));
    expect(source.card).toMatchObject({ last4: "3184" });
    // A repeat of the same return finishes the same save: one card.
    expect(saved(await finishCardSetup(id, setup.setupId, outcome, use, providers)).id).toBe(source.id);
    expect((await billing.listPaymentSources(id)).map((each) => each.id)).toEqual([source.id]);
  });

  it("replaces the old card once authenticated, and keeps it when the authentication failed", async () => {
    const id = await customer("cust_3ds_replace");
    const old = saved(await addCard(id, card("4242 4242 4242 4242"), "3ds-replace:add", providers));
    const failed = waiting(await replaceCard(id, old.id, card("4000 0025 0000 3155"), "3ds-replace:1", providers));
    const use = { replaces: old.id, setAsPrimary: true };
    const refused = finishCardSetup(id, failed.setupId, await answer(failed.setupId, "fail"), use, providers);
    await expect(refused).rejects.toMatchObject({
      name: "CardError",
      field: "card",
      code: "setup_intent_authentication_failure",
      providerMessage: CARD_MESSAGES.authenticationFailed,
    });
    expect((await billing.listPaymentSources(id)).map((each) => each.id)).toEqual([old.id]);

    const setup = waiting(await replaceCard(id, old.id, card("4000 0000 0000 3220"), "3ds-replace:2", providers));
    const outcome = await answer(setup.setupId, "complete");
    const replacement = saved(await finishCardSetup(id, setup.setupId, outcome, use, providers));
    expect(replacement.card).toMatchObject({ last4: "3220" });
    expect((await billing.listPaymentSources(id)).map((each) => each.id)).toEqual([replacement.id]);
  });
});

describe("a card the gateway keeps for its customer (Stripe's SetupIntent)", () => {
  /**
   * A card provider whose setup saves a payment method already attached to the gateway customer, as a Stripe
   * SetupIntent does; the embedded vault keeps the card, so the embedded billing engine can read it.
   */
  async function gatewayCards(gatewayCustomer: string, number: string) {
    const { cards } = providers;
    const token = await tokenOf(cards, card(number).form, { firstName: "Pat", lastName: "Cardholder" }, number);
    const { id } = await cards.createPaymentMethod(token, `${number}:method`);
    await cards.attachPaymentMethod(id, gatewayCustomer, `${number}:attach`);
    const owners: CardOwner[] = [];
    const setUpCard: CardProvider["setUpCard"] = async (request) => {
      owners.push(await request.owner());
      return { status: "succeeded", paymentMethod: { gatewayCustomer, id } };
    };
    // The embedded provider in all else (a class: its methods are on its prototype).
    const gatewayOnly = Object.assign(Object.create(cards) as CardProvider, { setUpCard });
    return { providers: { billing, cards: gatewayOnly }, owners, id };
  }

  it("adds it by its reference, for a first card with no gateway customer yet", async () => {
    const id = await customer("cust_gateway_add");
    const gateway = await gatewayCards(gatewayCustomerFor(id), "5555 5555 5555 4444");
    const source = saved(await addCard(id, card("ignored"), "form-g1", gateway.providers));
    expect(source.referenceId).toBe(`${gatewayCustomerFor(id)}/${gateway.id}`);
    expect(source.card).toMatchObject({ last4: "4444" });
    expect(gateway.owners).toEqual([{ billingCustomerId: id, gatewayCustomer: null }]);
  });

  it("replaces a card with it, set up for the gateway customer that keeps the old card", async () => {
    const id = await customer("cust_gateway_replace");
    const old = saved(await addCard(id, card("4242 4242 4242 4242"), "form-g2", providers));
    const [gatewayCustomer] = old.referenceId.split("/");
    const gateway = await gatewayCards(gatewayCustomer, "3782 822463 10005");
    const source = saved(await replaceCard(id, old.id, card("ignored"), "form-g3", gateway.providers));
    expect(gateway.owners).toEqual([{ billingCustomerId: id, gatewayCustomer }]);
    expect((await billing.listPaymentSources(id)).map((kept) => kept.id)).toEqual([source.id]);
  });
});
