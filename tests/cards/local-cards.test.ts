import { eq } from "drizzle-orm";
import { getCards } from "~/server/cards/index.server";
import { attachedCard } from "~/server/providers/card-vault.server";
import { db } from "~/server/platform/database/db.server";
import { cardTokens } from "~/server/platform/database/tables.server";

/** The embedded card provider: tokens from posted fields, payment methods, attaching them to a gateway customer. */
const cards = getCards();
const holder = { firstName: "Sam", lastName: "Holder" };

function cardForm(number: string) {
  const form = new FormData();
  form.set("card_number", number);
  form.set("card_expiry", "11 / 33");
  form.set("card_cvc", "321");
  return form;
}

describe("the embedded card provider", () => {
  it("is the default, with plain card fields", () => {
    expect(cards.name).toBe("local");
    expect(cards.entry).toEqual({ mode: "local" });
  });

  it("turns posted card fields into a one-time token that keeps no card number", async () => {
    const token = await cards.temporaryToken(cardForm("4242 4242 4242 4242"), holder, "form-a");
    expect(token).toMatch(/^tok_local_/);
    expect(await cards.temporaryToken(cardForm("4242 4242 4242 4242"), holder, "form-a")).toBe(token);
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

  it("refuses a declined card with the provider's message on the card field", async () => {
    await expect(cards.temporaryToken(cardForm("4000000000000002"), holder, "form-b")).rejects.toMatchObject({
      kind: "final",
      field: "card",
      code: "card_declined",
      providerMessage: "Your card was declined.",
    });
    await expect(cards.temporaryToken(new FormData(), holder, "form-c")).rejects.toMatchObject({
      providerMessage: "Cannot be empty.",
    });
  });

  it("makes a payment method from a token once, and attaches it to a gateway customer", async () => {
    const token = await cards.temporaryToken(cardForm("5555555555554444"), holder, "form-d");
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
