import {
  areAddressesValid,
  INVALID_ADDRESSES,
  isUsableSource,
  ONE_CARD_ONLY,
  preselectSource,
  SELECT_PAYMENT_METHOD,
} from "~/domain/payment-step";
import { type BillingProfileInput, type CardFormInput, type ShippingAddressInput } from "~/domain/billing-forms";
import { countryName, phoneFormValues } from "./contact-options.server";
import type {
  AddressFormDefaults,
  AddressView,
  BillingProfileView,
  PaymentSourceView,
  PaymentStepData,
} from "~/domain/billing-views";
import type { ShippingAddress } from "~db/schema";
import {
  getBilling,
  ProviderError,
  type Address,
  type BillingProvider,
  type Customer,
  type PaymentSource,
} from "./billing/index.server";
import { addCard, replaceCard, type CardForm } from "./payment-methods.server";
import { holdCardSlot, releaseCardSlot } from "./throttle.server";
import { assignBillingCustomerId, saveShippingAddress, type UserRecord } from "./users.server";

/**
 * The account's billing data (cards, billing profile, shipping address) for the /account page, its
 * drawers and the wizards' payment step, read and changed through the billing and card ports. Every
 * call is scoped to the signed-in user's billing customer.
 */

/** A user's billing customer, created with their profile on first need (the admin and the distributor start without). */
export async function ensureBillingCustomer(
  user: UserRecord,
  billing: BillingProvider = getBilling(),
): Promise<string> {
  const customerId = user.billingCustomerId ?? assignBillingCustomerId(user.id);
  const { firstName, lastName, email, phone, company } = user;
  await billing.ensureCustomer(
    customerId,
    { firstName, lastName, email, phone, company },
    `ensure-customer:${customerId}`,
  );
  return customerId;
}

const isNotFound = (error: unknown) => error instanceof ProviderError && error.code === "not_found";

/** The customer, or null while none exists at the provider yet. */
async function findCustomer(user: UserRecord, billing: BillingProvider): Promise<Customer | null> {
  if (!user.billingCustomerId) return null;
  try {
    return await billing.retrieveCustomer(user.billingCustomerId);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

async function listSources(user: UserRecord, billing: BillingProvider): Promise<PaymentSource[]> {
  return user.billingCustomerId ? billing.listPaymentSources(user.billingCustomerId) : [];
}

type Loaded<T> = { ok: true; value: T } | { ok: false };

/** A provider failure becomes "not loaded" (the page says so); anything else is a bug and is thrown. */
async function load<T>(read: Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, value: await read };
  } catch (error) {
    if (error instanceof ProviderError) return { ok: false };
    throw error;
  }
}

export function sourceView(source: PaymentSource): PaymentSourceView {
  const { card } = source;
  return {
    id: source.id,
    type: source.type,
    status: source.status,
    card: card && {
      brand: card.brand,
      last4: card.last4,
      holder: `${card.firstName} ${card.lastName}`.trim(),
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
    },
  };
}

/** Only the parts a person reads (no state code); null when nothing is filled in. */
function addressView(address: Address | ShippingAddress | null | undefined): AddressView | null {
  if (!address) return null;
  const { firstName, lastName, company, email, phone, line1, line2, city, state, zip, country } = address;
  const view = { firstName, lastName, company, email, phone, line1, line2, city, state, zip, country };
  const filled = Object.entries(view).filter(([, value]) => Boolean(value));
  return filled.length ? (Object.fromEntries(filled) as AddressView) : null;
}

/**
 * An address as a page shows it, with its country's name (the country list stays on the server). Only for
 * pages: an order's request carries the address without it.
 */
export function addressForPage(address: AddressView | null | undefined): AddressView | null {
  if (!address) return null;
  return address.country ? { ...address, countryName: countryName(address.country) } : address;
}

/** The payment step's data as a page shows it: the addresses with their countries' names. */
export function paymentForPage(payment: PaymentStepData): PaymentStepData {
  if (payment.status !== "ready") return payment;
  return {
    ...payment,
    billingAddress: addressForPage(payment.billingAddress),
    shippingAddress: addressForPage(payment.shippingAddress),
  };
}

type BillingRead = [Loaded<PaymentSource[]>, Loaded<Customer | null>];

function readBilling(user: UserRecord, billing: BillingProvider): Promise<BillingRead> {
  return Promise.all([load(listSources(user, billing)), load(findCustomer(user, billing))]);
}

function paymentStepOf([sources, customer]: BillingRead, user: UserRecord): PaymentStepData {
  if (!sources.ok || !customer.ok) return { status: "error" };
  const billingAddress = addressView(customer.value?.billingAddress);
  const shippingAddress = addressView(user.shippingAddress);
  return {
    status: "ready",
    sources: sources.value.map(sourceView),
    preselectedSourceId: preselectSource(sources.value, customer.value?.primaryPaymentSourceId ?? null),
    billingAddress,
    shippingAddress,
    addressesValid: areAddressesValid(billingAddress, shippingAddress),
  };
}

/** What the payment step shows for this user; "error" when the cards or the customer fail to load. */
export async function loadPaymentStep(
  user: UserRecord,
  billing: BillingProvider = getBilling(),
): Promise<PaymentStepData> {
  return paymentStepOf(await readBilling(user, billing), user);
}

/** The /account page: the payment step's data and the billing profile ("error" when it failed to load). */
export async function loadAccountBilling(user: UserRecord, billing: BillingProvider = getBilling()) {
  const read = await readBilling(user, billing);
  const [, customer] = read;
  const billingProfile: BillingProfileView | null | "error" = customer.ok ? profileView(customer.value) : "error";
  return { payment: paymentStepOf(read, user), billingProfile };
}

function profileView(customer: Customer | null): BillingProfileView | null {
  if (!customer) return null;
  const { firstName, lastName, email, phone, company } = customer;
  return { firstName, lastName, email, phone, company };
}

export type PaymentChoice =
  | { ok: true; paymentSourceId: string; billingAddress: AddressView | null; shippingAddress: AddressView | null }
  | { ok: false; message: string };

/**
 * For a wizard's Next: the posted payment_source_id checked against the user's own usable cards, and the
 * addresses checked by the spec's rule. The message is the spec's when something is missing.
 */
export async function choosePayment(
  user: UserRecord,
  formData: FormData,
  billing: BillingProvider = getBilling(),
  { withAddresses = true } = {},
): Promise<PaymentChoice> {
  const step = await loadPaymentStep(user, billing);
  if (step.status === "error") return { ok: false, message: "Error" };
  const chosen = step.sources.find((source) => source.id === formData.get("payment_source_id"));
  if (!chosen || !isUsableSource(chosen)) return { ok: false, message: SELECT_PAYMENT_METHOD };
  // The trials ship to their own address step and need only the card.
  if (withAddresses && !step.addressesValid) return { ok: false, message: INVALID_ADDRESSES };
  return {
    ok: true,
    paymentSourceId: chosen.id,
    billingAddress: step.billingAddress,
    shippingAddress: step.shippingAddress,
  };
}

// --- Cards -------------------------------------------------------------------------------------------

/** Thrown when a card is added while one is on file. */
export class OneCardLimitError extends Error {
  constructor() {
    super(ONE_CARD_ONLY);
  }
}

/** The user's card with this id; null when it is not theirs (or does not exist). */
export async function findOwnSource(user: UserRecord, sourceId: string, billing: BillingProvider = getBilling()) {
  return (await listSources(user, billing)).find((source) => source.id === sourceId) ?? null;
}

export async function hasCard(user: UserRecord, billing: BillingProvider = getBilling()): Promise<boolean> {
  return (await listSources(user, billing)).length > 0;
}

function cardFormOf(form: FormData, input: CardFormInput): CardForm {
  return {
    form,
    holder: {
      firstName: input.first_name,
      lastName: input.last_name,
      addressLine1: input.address_line1,
      addressLine2: input.address_line2,
      city: input.address_city,
      state: input.address_state,
      zip: input.address_zip,
      country: input.address_country,
    },
    setAsPrimary: input.set_as_primary,
  };
}

/**
 * Adds the user's card; refuses a second one, atomically: the check and the add run holding the user's card
 * slot, so two tabs cannot both add. The key belongs to the rendered form (a double submit adds one).
 */
export async function addCardFor(user: UserRecord, form: FormData, input: CardFormInput, idempotencyKey: string) {
  if (!(await holdCardSlot(user.id))) throw new OneCardLimitError();
  try {
    if (await hasCard(user)) throw new OneCardLimitError();
    const customerId = await ensureBillingCustomer(user);
    return await addCard(customerId, cardFormOf(form, input), idempotencyKey);
  } finally {
    await releaseCardSlot(user.id);
  }
}

/** Replaces one of the user's cards (the caller has checked it is theirs) with the posted one. */
export async function replaceCardFor(
  user: UserRecord,
  sourceId: string,
  form: FormData,
  input: CardFormInput,
  idempotencyKey: string,
) {
  const customerId = await ensureBillingCustomer(user);
  return replaceCard(customerId, sourceId, cardFormOf(form, input), idempotencyKey);
}

// --- Billing profile and shipping address --------------------------------------------------------------

const ADDRESS_FIELDS = ["line1", "line2", "city", "state", "zip", "country"] as const;

/** An address drawer's starting values, in its field names: a person's details and an address. */
function addressFormValues(
  person: { firstName?: string; lastName?: string; email?: string; company?: string; phone?: string },
  address: Address | null | undefined,
): AddressFormDefaults {
  return {
    first_name: person.firstName ?? "",
    last_name: person.lastName ?? "",
    email: person.email ?? "",
    company: person.company ?? "",
    ...phoneFormValues(person.phone ?? ""),
    ...Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, address?.[field] ?? ""])),
  };
}

/** The billing profile form's starting values: the customer's, or the user's own before a customer exists. */
export async function billingProfileDefaults(user: UserRecord, billing: BillingProvider = getBilling()) {
  const customer = await findCustomer(user, billing);
  return customer ? addressFormValues(customer, customer.billingAddress) : addressFormValues(user, null);
}

/**
 * Saves the billing profile with the spec's two calls: the contact
 * details, then the billing address. It succeeds only when both do; a failure of either is thrown.
 */
export async function saveBillingProfile(
  user: UserRecord,
  input: BillingProfileInput,
  billing: BillingProvider = getBilling(),
) {
  const customerId = await ensureBillingCustomer(user, billing);
  const { first_name: firstName, last_name: lastName, email, phone, company } = input;
  await billing.updateCustomer(customerId, { firstName, lastName, email, phone, company });
  const { line1, line2, city, state, zip, country } = input;
  await billing.updateBillingInfo(customerId, { firstName, lastName, line1, line2, city, state, zip, country });
}

export function shippingDefaults(user: UserRecord) {
  return addressFormValues(user.shippingAddress ?? {}, user.shippingAddress);
}

export function saveShipping(user: UserRecord, input: ShippingAddressInput) {
  const {
    first_name: firstName,
    last_name: lastName,
    email,
    phone,
    company,
    line1,
    line2,
    city,
    state,
    zip,
    country,
  } = input;
  saveShippingAddress(user.id, { firstName, lastName, email, phone, company, line1, line2, city, state, zip, country });
}

/** Back to "same as billing address". */
export function clearShipping(user: UserRecord) {
  saveShippingAddress(user.id, null);
}
