import { z } from "zod";
import { countryCode, phoneFields } from "./contact-fields";
import { hasVatNumbers } from "./tax-ids";
import { INVALID_VAT_NUMBER, normalizeVatNumber, NO_VAT_NUMBERS } from "./vat-format";
import { PO_NUMBER_MAX_LENGTH } from "./purchase-orders";
import {
  boundedString,
  CANNOT_BE_EMPTY,
  checkbox,
  optionalEmail,
  optionalText,
  requiredEmail,
  requiredText,
  SELECT_YOUR_COUNTRY,
} from "./fields";

/**
 * The billing area's forms (the card, billing profile and shipping forms) and their rules, with the messages shown
 * under each field.
 */
/**
 * The card form of the payment-method drawers. The card itself is either the embedded tokenizer's
 * card_number (with card_expiry and card_cvc, which only the card provider checks) or Stripe's card_setup (the
 * SetupIntent the browser confirmed, or "checkout" from a page without JavaScript); its 'Cannot be empty.' goes on
 * the field "card".
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
    z.object({ card_number: optionalText, card_setup: optionalText }).superRefine((card, ctx) => {
      if (!card.card_number && !card.card_setup) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["card"], message: CANNOT_BE_EMPTY });
      }
    }),
  );

export type CardFormInput = z.infer<typeof cardFormSchema>;

/** The card fields that are never written back into a page, like passwords. */
export const SECRET_CARD_FIELDS = ["card_number", "card_expiry", "card_cvc", "card_setup"] as const;

const personName = { first_name: requiredText, last_name: requiredText };
const streetAddress = {
  line1: requiredText,
  line2: optionalText,
  city: requiredText,
  state: requiredText,
  zip: requiredText,
};

/**
 * An optional VAT number of the billing address's country, checked for its format at the field (the register is
 * asked on save), and given back in its one written form (with its prefix). Only countries that have VAT numbers
 * take one.
 */
const vatNumberOfCountry = z
  .object({ country: optionalText, vat_number: boundedString(40).trim().default("") })
  .superRefine(({ country, vat_number }, ctx) => {
    if (!vat_number) return;
    if (!hasVatNumbers(country)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["vat_number"], message: NO_VAT_NUMBERS });
    } else if (!normalizeVatNumber(country, vat_number)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["vat_number"], message: INVALID_VAT_NUMBER });
    }
  })
  .transform(({ country, vat_number }) => ({
    vat_number: vat_number ? (normalizeVatNumber(country, vat_number) ?? "") : "",
  }));

/**
 * 'Update Billing Profile': the customer's contact details and the billing address, all but line2 required, and
 * the VAT number of a business in a country that has them.
 */
export const billingProfileSchema = z
  .object({
    ...personName,
    email: requiredEmail,
    company: requiredText,
    ...streetAddress,
    country: countryCode(SELECT_YOUR_COUNTRY),
  })
  .and(phoneFields(true))
  .and(vatNumberOfCountry);

export type BillingProfileInput = z.infer<typeof billingProfileSchema>;

/**
 * 'Correct invoice': the buyer as the corrected document names them (the company, the contact's name and the
 * billing address), the VAT number and the purchase order number. The country is the invoice's own, posted back
 * as it was shown: changing it changes the tax, which no correction may.
 */
export const invoiceCorrectionSchema = z
  .object({
    company: requiredText,
    ...personName,
    ...streetAddress,
    state: optionalText,
    country: countryCode(CANNOT_BE_EMPTY),
    po_number: boundedString(PO_NUMBER_MAX_LENGTH).trim().default(""),
  })
  .and(vatNumberOfCountry);

export type InvoiceCorrectionInput = z.infer<typeof invoiceCorrectionSchema>;

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
