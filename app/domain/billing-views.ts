/**
 * What the billing pieces render, as the server sends it (plain JSON: no Dates, no vendor types).
 * The server modules build these from the billing port; the components only read them.
 */

export interface CardView {
  brand: string;
  last4: string;
  holder: string;
  expiryMonth: number;
  expiryYear: number;
}

export interface PaymentSourceView {
  id: string;
  type: string;
  status: string;
  card: CardView | null;
}

/** A billing or shipping address as the panels show it; every part may be missing. */
export interface AddressView {
  firstName?: string;
  lastName?: string;
  company?: string;
  email?: string;
  phone?: string;
  line1?: string;
  line2?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  /** The country's English name, for reading (the list of names stays on the server). */
  countryName?: string;
}

/** An option of a native select, as a loader sends the country and dial-code lists. */
export interface SelectOption {
  value: string;
  label: string;
}

/** Everything the payment step shows, or "error" when the cards or the customer could not be read. */
export type PaymentStepData =
  | { status: "error" }
  | {
      status: "ready";
      sources: PaymentSourceView[];
      /** The primary card when usable, else the first usable one. */
      preselectedSourceId: string | null;
      billingAddress: AddressView | null;
      /** null: same as billing. */
      shippingAddress: AddressView | null;
      addressesValid: boolean;
    };

/**
 * 'Choose another card' on the progress page of a job that waits for the cardholder's bank: the organization's
 * cards, and the payment intent the page shows the job waiting on, which the choice posts back (WAITING_ON_FIELD)
 * so that a choice made on an older page (a second tab) starts nothing.
 */
export interface AnotherCardData {
  step: PaymentStepData;
  waitingOn: string;
}

export const WAITING_ON_FIELD = "waiting_on";

/** The field of the post from the page where the cardholder authenticated a payment: the job it answers for. */
export const AUTHENTICATED_JOB_FIELD = "job";

export interface BillingProfileView {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
  /** The VAT number, with what the tax register said of it in words ('valid', 'not yet checked', ...). */
  vat: { number: string; status: string; checkedAt: string | null; registerName: string | null } | null;
}

/** The card drawers' loader data: where closing goes, how cards are entered, and this form's key. */
export interface CardDrawerData {
  closeTo: string;
  /** Plain card fields, or Stripe's element with the SetupIntent the browser confirms and the bank's return URL. */
  entry: { mode: "local" } | { mode: "stripe"; publishableKey: string; clientSecret: string; returnUrl: string };
  /** One key per rendered form, so a double submit adds one card. */
  idempotencyKey: string;
  /** The holder's name to start from. */
  defaults: { first_name: string; last_name: string; set_as_primary: boolean };
  /** For 'Replace payment method': the card being replaced. */
  replacing?: PaymentSourceView;
  countries: SelectOption[];
}

/** The address forms' country and dial-code options. */
export interface ContactOptions {
  countries: SelectOption[];
  dialCodes: SelectOption[];
}

export interface AddressFormDefaults {
  [field: string]: string;
}

export interface BillingProfileDrawerData extends ContactOptions {
  closeTo: string;
  /** null when the billing profile could not be read ('Error fetching billing profile.'). */
  defaults: AddressFormDefaults | null;
}

export interface ShippingDrawerData extends ContactOptions {
  closeTo: string;
  defaults: AddressFormDefaults;
  /** Whether a separate shipping address is saved now (and so can be cleared). */
  hasShippingAddress: boolean;
}

/** A form the server refused as a whole (the provider's failure), besides or instead of field errors. */
export interface FormFailure {
  formError?: string;
}
