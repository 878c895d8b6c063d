import { eq } from "drizzle-orm";
import { getCards } from "~/server/cards/index.server";
import type { CardSetup } from "~/server/cards/port.server";
import { answerSetup, attachedCard, cardFromToken } from "~/server/providers/card-vault.server";
import { CARD_MESSAGES } from "~/server/providers/test-cards.server";
import { db } from "~/server/platform/database/db.server";
import { savedToken, setupRequest } from "../support/card-tokens";
import { cardTokens } from "~/server/platform/database/tables.server";

/**
 * The embedded card provider: setups of posted fields (saved, waiting for the bank's page, declined), payment
 * methods, attaching them to a gateway customer.
 */
const cards = getCards();
const holder = { firstName: "Sam", lastName: "Holder" };
const setUp = (number: string, key: string, form = cardForm(number)) =>
  cards.setUpCard(setupRequest(form, holder), key);
const tokenOf = savedToken;

function waiting(setup: CardSetup) {
  if (setup.status !== "requires_action") throw new Error(`not waiting: ${setup.status}`);
  return setup;
}

function cardForm(number: string) {
  const form = new FormData();
  form.set("card_number", number);
  form.set("card_expiry", "11 / 33");
  form.set("card_cvc", "321");
  return form;
}

describe("the embedded card provider", () => {
  it("is the default, with plain card fields, and reads no owner to show them", async () => {
    expect(cards.name).toBe("local");
    const owner = () => Promise.reject(new Error("The embedded tokenizer makes nothing for the page"));
    expect(await cards.entryFor({ owner, returnUrl: "/account/cards/return" }, "page-1")).toEqual({ mode: "local" });
  });

  it("saves posted card fields outright as a one-time token that keeps no card number", async () => {
    const token = tokenOf(await setUp("4242 4242 4242 4242", "form-a"));
    expect(token).toMatch(/^tok_local_/);
    expect(tokenOf(await setUp("4242 4242 4242 4242", "form-a"))).toBe(token);
    const [row] = await db.select().from(cardTokens).where(eq(cardTokens.id, token));
    expect(row).toMatchObject({
      kind: "token",
      brand: "visa",
      last4: "4242",
      expiryMonth: 11,
      expiryYear: 2033,
      firstName: "Sam",
    });
    expect(JSON.stringify(row)).not.toContain("424242424242");
  });

  it("declines a declined card in the provider's words", async () => {
    expect(await setUp("4000000000000002", "form-b")).toEqual({
      status: "declined",
      code: "card_declined",
      message: "Your card was declined.",
    });
    expect(await setUp("", "form-c", new FormData())).toMatchObject({
      status: "declined",
      message: "Cannot be empty.",
    });
  });

  it.each(["4000 0027 6000 3184", "4000 0025 0000 3155", "4000 0000 0000 3220"])(
    "sends the cardholder of %s to the bank's page, and saves the card once they completed it",
    async (number) => {
      const key = `form-3ds-${number}`;
      const setup = waiting(await setUp(number, key));
      expect(setup.redirectUrl).toBe(`/cards/authenticate/${setup.setupId}`);
      expect(waiting(await setUp(number, key)).setupId).toBe(setup.setupId);
      expect(await cards.setupOutcome(setup.setupId)).toEqual(setup);

      await answerSetup(db, setup.setupId, "complete");
      const token = tokenOf(await cards.setupOutcome(setup.setupId));
      // A second answer (a reload of the bank's page, a second tab) changes nothing.
      expect((await answerSetup(db, setup.setupId, "fail"))?.status).toBe("succeeded");
      expect(tokenOf(await cards.setupOutcome(setup.setupId))).toBe(token);
      expect(await cardFromToken(db, token, "cus_local_3ds", new Date())).toMatchObject({
        card: { last4: number.slice(-4) },
      });
    },
  );

  it("declines a card whose cardholder failed the authentication, and never saves it", async () => {
    const setup = waiting(await setUp("4000002760003184", "form-3ds-fail"));
    const [row] = await db.select().from(cardTokens).where(eq(cardTokens.last4, "3184"));
    // Waiting for the bank, its token cannot be used to save the card around it.
    expect(await cardFromToken(db, row.id, "cus_local_3ds", new Date())).toBeNull();
    await answerSetup(db, setup.setupId, "fail");
    expect(await cards.setupOutcome(setup.setupId)).toEqual({
      status: "declined",
      code: "setup_intent_authentication_failure",
      message: CARD_MESSAGES.authenticationFailed,
    });
    expect((await answerSetup(db, setup.setupId, "complete"))?.status).toBe("failed");
    expect(await cardFromToken(db, row.id, "cus_local_3ds", new Date())).toBeNull();
    await expect(cards.setupOutcome("seti_local_nothing")).rejects.toMatchObject({ code: "resource_missing" });
  });

  it("makes a payment method from a token once, and attaches it to a gateway customer", async () => {
    const token = tokenOf(await setUp("5555555555554444", "form-d"));
    const method = await cards.createPaymentMethod(token, "method-d");
    expect(await cards.createPaymentMethod(token, "method-d")).toEqual(method);
    await expect(cards.createPaymentMethod(token, "method-d2")).rejects.toMatchObject({
      kind: "final",
      code: "resource_missing",
    });

    await cards.attachPaymentMethod(method.id, "cus_local_someone", "attach-d");
    expect(await attachedCard(db, method.id, "cus_local_someone")).toMatchObject({
      brand: "mastercard",
      last4: "4444",
    });
    expect(await attachedCard(db, method.id, "cus_local_other")).toBeNull();
    await expect(cards.attachPaymentMethod("pm_local_nothing", "cus_local_someone", "attach-x")).rejects.toMatchObject({
      kind: "final",
      code: "resource_missing",
    });
  });
});
