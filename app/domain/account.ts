import { z } from "zod";
import { isCountryCode } from "./countries";
import { toE164 } from "./phone";

/** Messages of spec 000 §5. */
export const CANNOT_BE_EMPTY = "Cannot be empty.";
export const INVALID_PHONE = "Invalid phone number.";

export const requiredText = z.string({ required_error: CANNOT_BE_EMPTY }).trim().min(1, CANNOT_BE_EMPTY);

/**
 * A phone number posted as a dial-code country and the number; it comes out in E.164. An empty number
 * gives 'Cannot be empty.', one that is not a valid number for the country 'Invalid phone number.'.
 */
export function phoneFields<Required extends boolean>(required: Required) {
  return z
    .object({ phone_country: z.string().default("US"), phone: z.string().trim().default("") })
    .superRefine((value, ctx) => {
      if (!value.phone) {
        if (required) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["phone"], message: CANNOT_BE_EMPTY });
      } else if (!toE164(value.phone_country, value.phone)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["phone"], message: INVALID_PHONE });
      }
    })
    .transform(({ phone_country, phone }) => ({ phone: phone ? (toE164(phone_country, phone) ?? "") : "" }));
}

export const profileSchema = z
  .object({
    firstName: requiredText,
    lastName: requiredText,
    company: requiredText,
  })
  .and(phoneFields(true));

export type ProfileInput = z.infer<typeof profileSchema>;

/** The new password's requirements, shown as a checklist with the unmet ones marked. */
export const PASSWORD_REQUIREMENTS = [
  { id: "length", label: "At least 10 characters", test: (password: string) => password.trim().length >= 10 },
  { id: "digit", label: "A number", test: (password: string) => /\d/.test(password) },
  { id: "lowercase", label: "A lowercase letter", test: (password: string) => /[a-z]/.test(password) },
  { id: "uppercase", label: "An uppercase letter", test: (password: string) => /[A-Z]/.test(password) },
  { id: "symbol", label: "A symbol", test: (password: string) => /[^A-Za-z0-9\s]/.test(password) },
] as const;

export const unmetPasswordRequirements = (password: string) =>
  PASSWORD_REQUIREMENTS.filter((requirement) => !requirement.test(password)).map((requirement) => requirement.id);

/** All three rules are checked together, so every message shows at once. */
export const passwordChangeSchema = z
  .object({
    old_password: z.string().default(""),
    new_password: z.string().default(""),
    confirm_password: z.string().default(""),
  })
  .superRefine((value, ctx) => {
    const fail = (field: string, message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
    if (!value.old_password) fail("old_password", CANNOT_BE_EMPTY);
    if (unmetPasswordRequirements(value.new_password).length > 0) fail("new_password", "Doesn't match requirements.");
    if (value.confirm_password !== value.new_password) fail("confirm_password", "Doesn't match new password.");
  });

// --- Billing area (spec 000 §3 payment, billing profile and shipping forms; §5 their rules) -----------

export const SELECT_YOUR_COUNTRY = "Please select your country.";
/** Spec 001 §5's email message; spec 000 names no message for a malformed email. */
export const INVALID_EMAIL = "Invalid Email";

const optionalText = z.string().trim().default("");
const countryCode = (message: string) =>
  z
    .string({ required_error: message })
    .trim()
    .toUpperCase()
    .refine((code) => isCountryCode(code), message);
const requiredEmail = requiredText.pipe(z.string().email(INVALID_EMAIL));
const optionalEmail = optionalText.pipe(z.union([z.literal(""), z.string().email(INVALID_EMAIL)]));
/** A checkbox posts "on" when ticked and nothing when not. */
const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on");

/**
 * The card form of the payment-method drawers. The card itself is either the embedded tokenizer's
 * card_number (with card_expiry and card_cvc, which only the card provider checks) or the browser-made
 * card_token of Stripe's element; its 'Cannot be empty.' goes on the field "card".
 */
export const cardFormSchema = z
  .object({
    first_name: requiredText,
    last_name: requiredText,
    address_line1: requiredText,
    address_line2: optionalText,
    address_city: requiredText,
    address_state: requiredText,
    address_zip: requiredText,
    address_country: countryCode(CANNOT_BE_EMPTY),
    set_as_primary: checkbox,
  })
  // A separate part of the intersection, so that its message shows together with the other fields'.
  .and(
    z.object({ card_number: optionalText, card_token: optionalText }).superRefine((card, ctx) => {
      if (!card.card_number && !card.card_token) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["card"], message: CANNOT_BE_EMPTY });
      }
    }),
  );

export type CardFormInput = z.infer<typeof cardFormSchema>;

/** The card fields that are never written back into a page, like passwords. */
export const SECRET_CARD_FIELDS = ["card_number", "card_expiry", "card_cvc", "card_token"] as const;

const personName = { first_name: requiredText, last_name: requiredText };
const streetAddress = { line1: requiredText, line2: optionalText, city: requiredText, state: requiredText, zip: requiredText };

/** 'Update Billing Profile': the customer's contact details and the billing address, all but line2 required. */
export const billingProfileSchema = z
  .object({
    ...personName,
    email: requiredEmail,
    company: requiredText,
    ...streetAddress,
    country: countryCode(SELECT_YOUR_COUNTRY),
  })
  .and(phoneFields(true));

export type BillingProfileInput = z.infer<typeof billingProfileSchema>;

/** 'Update Shipping Address': a name and a street address; email, phone, company and line2 optional. */
export const shippingAddressSchema = z
  .object({
    ...personName,
    email: optionalEmail,
    company: optionalText,
    ...streetAddress,
    country: countryCode(CANNOT_BE_EMPTY),
  })
  .and(phoneFields(false));

export type ShippingAddressInput = z.infer<typeof shippingAddressSchema>;

// --- The payment step's rules (spec 000 §4 "Payment step") ------------------------------------------

/** The part of an address these rules read. */
export interface AddressLike {
  firstName?: string | null;
  line1?: string | null;
}

const filled = (value: string | null | undefined) => Boolean(value?.trim());

/** A billing address counts once it has a street line; without one the panel asks to update it. */
export const isBillingAddressValid = (billing: AddressLike | null | undefined) => filled(billing?.line1);

/**
 * The billing and shipping pair is valid if billing is valid, or if shipping has a first name and a
 * street line (an empty shipping address means "same as billing").
 */
export const areAddressesValid = (billing: AddressLike | null | undefined, shipping: AddressLike | null | undefined) =>
  isBillingAddressValid(billing) || (filled(shipping?.firstName) && filled(shipping?.line1));

/** A card the wizards may charge: valid, or valid but expiring soon. */
export const isUsableSource = (source: { status: string }) => source.status === "valid" || source.status === "expiring";

/** The card the payment step starts with: the customer's primary one when usable, else the first usable one. */
export function preselectSource<Source extends { id: string; status: string }>(
  sources: Source[],
  primaryId: string | null,
): string | null {
  const usable = sources.filter(isUsableSource);
  return (usable.find((source) => source.id === primaryId) ?? usable[0])?.id ?? null;
}

/** Spec 000 §2 "Billing step": the Add Card button's reason for being disabled (at most one card, §9). */
export const ONE_CARD_ONLY =
  "Currently only one credit card can be added. Please remove the existing card to use a different credit card.";
/** Spec 000 §8 "Next without selection". */
export const SELECT_PAYMENT_METHOD = "Please select a payment method.";
export const NO_PAYMENT_METHOD = "Please add and select a valid payment method.";
export const INVALID_ADDRESSES = "Please make sure billing & shipping address are valid.";

/** Why the payment step's Next button is disabled, in the spec's words; empty when it is enabled. */
export function paymentStepBlockers(selectedSourceUsable: boolean, addressesValid: boolean): string[] {
  return [...(selectedSourceUsable ? [] : [NO_PAYMENT_METHOD]), ...(addressesValid ? [] : [INVALID_ADDRESSES])];
}
