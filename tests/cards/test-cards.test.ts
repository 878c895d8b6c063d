import { CARD_MESSAGES, chargeDeclineMessage, checkCard, passesLuhn } from "~/server/providers/test-cards.server";

/** The embedded tokenizer's accept and decline paths, with Stripe's test numbers and messages. */
const now = new Date("2026-04-15T12:00:00Z");
const check = (number: string, expiry = "12 / 30", cvc = "123") => checkCard({ number, expiry, cvc }, now);

describe("the test tokenizer", () => {
  it.each([
    ["4242 4242 4242 4242", "123", "visa", "4242"],
    ["5555 5555 5555 4444", "123", "mastercard", "4444"],
    ["3782 822463 10005", "1234", "american_express", "0005"],
    ["6011-1111-1111-1117", "123", "discover", "1117"],
  ])("accepts %s", (number, cvc, brand, last4) => {
    expect(check(number, "12 / 30", cvc)).toEqual({
      ok: true,
      card: { brand, last4, expiryMonth: 12, expiryYear: 2030 },
    });
  });

  it("reads the expiry as MM / YY, MM/YYYY or MMYY", () => {
    for (const expiry of ["04 / 26", "4/2026", "0426", "04-26"]) {
      expect(check("4242424242424242", expiry)).toMatchObject({ ok: true, card: { expiryMonth: 4, expiryYear: 2026 } });
    }
  });

  it.each([
    ["4000 0000 0000 0002", "card_declined", "Your card was declined."],
    ["4000 0000 0000 0069", "expired_card", "Your card has expired."],
    ["4000 0000 0000 9995", "insufficient_funds", "Your card has insufficient funds."],
    ["4000 0000 0000 0127", "incorrect_cvc", "Your card's security code is incorrect."],
  ])("declines %s as Stripe's test card does", (number, code, message) => {
    expect(check(number)).toEqual({ ok: false, code, message });
  });

  it("accepts 4000 0000 0000 0341, which saves and then declines every charge, as Stripe's test card does", () => {
    expect(check("4000 0000 0000 0341")).toEqual({
      ok: true,
      card: { brand: "visa", last4: "0341", expiryMonth: 12, expiryYear: 2030, chargeDecline: "card_declined" },
    });
    expect(chargeDeclineMessage("card_declined")).toBe("Your card was declined.");
  });

  it("declines a card that is not a test card, so no real card goes into a demo", () => {
    expect(passesLuhn("4111111111111111")).toBe(true);
    expect(check("4111 1111 1111 1111")).toEqual({
      ok: false,
      code: "card_declined",
      message: CARD_MESSAGES.notATestCard,
    });
  });

  it.each([
    ["", "12 / 30", "123", "Cannot be empty."],
    ["4242 4242 4242", "12 / 30", "123", "Your card number is incomplete."],
    ["4242 4242 4242 4241", "12 / 30", "123", "Your card number is invalid."],
    ["4242 abcd 4242 4242", "12 / 30", "123", "Your card number is invalid."],
    ["4242 4242 4242 4242", "12 /", "123", "Your card's expiration date is incomplete."],
    ["4242 4242 4242 4242", "13 / 30", "123", "Your card's expiration month is invalid."],
    ["4242 4242 4242 4242", "12 / 25", "123", "Your card's expiration year is in the past."],
    ["4242 4242 4242 4242", "03 / 26", "123", "Your card's expiration date is in the past."],
    ["4242 4242 4242 4242", "12 / 30", "12", "Your card's security code is incomplete."],
    ["3782 822463 10005", "12 / 30", "123", "Your card's security code is incomplete."],
  ])("refuses %j / %j / %j: %s", (number, expiry, cvc, message) => {
    expect(check(number, expiry, cvc)).toMatchObject({ ok: false, message });
  });

  it("accepts a card expiring this month", () => {
    expect(check("4242424242424242", "04 / 26").ok).toBe(true);
  });

  it.each([
    ["4000 0027 6000 3184", "always"],
    ["4000 0025 0000 3155", "setup"],
    ["4000 0000 0000 3220", "always"],
  ])("knows that the bank of %s asks the cardholder to authenticate (%s)", (number, authentication) => {
    expect(check(number)).toMatchObject({ ok: true, card: { last4: number.slice(-4), authentication } });
  });

  it.each([
    ["4000 0084 0000 1629", "card_declined"],
    ["4000 0082 6000 3178", "insufficient_funds"],
  ])("knows that %s authenticates on every payment, then every charge is declined (%s)", (number, chargeDecline) => {
    expect(check(number)).toMatchObject({ ok: true, card: { authentication: "always", chargeDecline } });
  });

  it("asks no authentication for 4242", () => {
    expect(check("4242 4242 4242 4242")).toEqual({
      ok: true,
      card: { brand: "visa", last4: "4242", expiryMonth: 12, expiryYear: 2030 },
    });
  });
});
