/**
 * The embedded tokenizer's card checks: Luhn, expiry and security code with the messages Stripe's card
 * element shows, then the outcome of Stripe's documented test numbers. Any other number is declined, as in
 * Stripe's test mode, so nobody types a real card into a demo.
 */

export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
}

export interface CheckedCard {
  brand: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
  /** The decline code every charge to the card gets, for a card that saves but cannot be charged. */
  chargeDecline?: string;
  /** When the card's bank asks the cardholder to authenticate (3-D Secure); never when absent. */
  authentication?: CardAuthentication;
}

/**
 * When a test card's bank asks for 3-D Secure: on every payment and when the card is saved (`always`), or only
 * when it is saved, its later charges without the cardholder passing (`setup`).
 */
export type CardAuthentication = "always" | "setup";

export type CardCheck = { ok: true; card: CheckedCard } | { ok: false; code: string; message: string };

export const CARD_MESSAGES = {
  empty: "Cannot be empty.",
  incompleteNumber: "Your card number is incomplete.",
  invalidNumber: "Your card number is invalid.",
  incompleteExpiry: "Your card's expiration date is incomplete.",
  invalidMonth: "Your card's expiration month is invalid.",
  pastYear: "Your card's expiration year is in the past.",
  pastDate: "Your card's expiration date is in the past.",
  incompleteCvc: "Your card's security code is incomplete.",
  declined: "Your card was declined.",
  expired: "Your card has expired.",
  insufficientFunds: "Your card has insufficient funds.",
  incorrectCvc: "Your card's security code is incorrect.",
  notATestCard: "Your card was declined. This demo accepts only test cards, such as 4242 4242 4242 4242.",
  authenticationFailed:
    "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
} as const;

/** Stripe's documented test numbers that succeed. */
const ACCEPTED = new Set([
  "4242424242424242",
  "4000056655665556",
  "5555555555554444",
  "2223003122003222",
  "5200828282828210",
  "378282246310005",
  "371449635398431",
  "6011111111111117",
  "3056930009020004",
]);

/** Stripe's documented test numbers that fail when charged or saved, with the decline they give. */
const DECLINED: Record<string, { code: string; message: string }> = {
  "4000000000000002": { code: "card_declined", message: CARD_MESSAGES.declined },
  "4000000000000069": { code: "expired_card", message: CARD_MESSAGES.expired },
  "4000000000009995": { code: "insufficient_funds", message: CARD_MESSAGES.insufficientFunds },
  "4000000000000127": { code: "incorrect_cvc", message: CARD_MESSAGES.incorrectCvc },
};

/**
 * Stripe's documented test number that saves (attaching it to a customer succeeds) while every charge to it
 * fails, with the decline code it fails with: how a card that was good at checkout fails at a renewal.
 */
const DECLINED_WHEN_CHARGED: Record<string, string> = {
  "4000000000000341": "card_declined",
  // 3-D Secure test cards whose bank lets the cardholder authenticate, then declines the payment.
  "4000008400001629": "card_declined",
  "4000008260003178": "insufficient_funds",
};

/**
 * Stripe's documented 3-D Secure test numbers that save once the cardholder authenticated: 3184 asks on every
 * payment, 3155 only when saved (later charges without the cardholder pass), 3220 (3-D Secure 2) on every payment;
 * 1629 and 3178 ask on every payment, whose charge is then declined (card_declined, insufficient_funds).
 */
const AUTHENTICATING: Record<string, CardAuthentication> = {
  "4000002760003184": "always",
  "4000002500003155": "setup",
  "4000000000003220": "always",
  "4000008400001629": "always",
  "4000008260003178": "always",
};

/** What a charge to a card with this decline code is told, in Stripe's words. */
export function chargeDeclineMessage(code: string): string {
  return Object.values(DECLINED).find((decline) => decline.code === code)?.message ?? CARD_MESSAGES.declined;
}

const BRANDS: { brand: string; pattern: RegExp; minLength: number; cvc: number }[] = [
  { brand: "american_express", pattern: /^3[47]/, minLength: 15, cvc: 4 },
  { brand: "diners_club", pattern: /^(30[0-5]|3[689])/, minLength: 14, cvc: 3 },
  { brand: "visa", pattern: /^4/, minLength: 16, cvc: 3 },
  { brand: "mastercard", pattern: /^(5[1-5]|2[2-7])/, minLength: 16, cvc: 3 },
  { brand: "discover", pattern: /^(6011|65|64[4-9])/, minLength: 16, cvc: 3 },
];

function brandOf(digits: string) {
  return BRANDS.find((brand) => brand.pattern.test(digits)) ?? { brand: "other", minLength: 16, cvc: 3 };
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** "MM / YY", "MM/YY", "MM/YYYY" or "MMYY" as month and four-digit year; null when incomplete. */
function parseExpiry(expiry: string): { month: number; year: number } | null {
  const match = /^(\d{1,2})\s*[/-]?\s*(\d{2}|\d{4})$/.exec(expiry.trim());
  if (!match) return null;
  const year = Number(match[2]);
  return { month: Number(match[1]), year: year < 100 ? 2000 + year : year };
}

const fail = (code: string, message: string): CardCheck => ({ ok: false, code, message });

export function checkCard(fields: CardFields, now: Date): CardCheck {
  const digits = fields.number.replace(/[\s-]/g, "");
  if (!digits) return fail("incomplete_number", CARD_MESSAGES.empty);
  if (!/^\d+$/.test(digits)) return fail("invalid_number", CARD_MESSAGES.invalidNumber);
  const brand = brandOf(digits);
  if (digits.length < brand.minLength) return fail("incomplete_number", CARD_MESSAGES.incompleteNumber);
  if (digits.length > 19 || !passesLuhn(digits)) return fail("invalid_number", CARD_MESSAGES.invalidNumber);

  const expiry = parseExpiry(fields.expiry);
  if (!expiry) return fail("incomplete_expiry", CARD_MESSAGES.incompleteExpiry);
  if (expiry.month < 1 || expiry.month > 12) return fail("invalid_expiry_month", CARD_MESSAGES.invalidMonth);
  if (expiry.year < now.getUTCFullYear()) return fail("invalid_expiry_year_past", CARD_MESSAGES.pastYear);
  if (expiry.year === now.getUTCFullYear() && expiry.month < now.getUTCMonth() + 1) {
    return fail("invalid_expiry_past", CARD_MESSAGES.pastDate);
  }

  if (!new RegExp(`^\\d{${brand.cvc}}$`).test(fields.cvc.trim()))
    return fail("incomplete_cvc", CARD_MESSAGES.incompleteCvc);

  const declined = DECLINED[digits];
  if (declined) return fail(declined.code, declined.message);
  const chargeDecline = DECLINED_WHEN_CHARGED[digits];
  const authentication = AUTHENTICATING[digits];
  if (!ACCEPTED.has(digits) && !chargeDecline && !authentication) {
    return fail("card_declined", CARD_MESSAGES.notATestCard);
  }
  const card = { brand: brand.brand, last4: digits.slice(-4), expiryMonth: expiry.month, expiryYear: expiry.year };
  return {
    ok: true,
    card: { ...card, ...(chargeDecline && { chargeDecline }), ...(authentication && { authentication }) },
  };
}
