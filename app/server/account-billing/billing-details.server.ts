import {
  areAddressesValid,
  INVALID_ADDRESSES,
  isUsableSource,
  ONE_CARD_ONLY,
  preselectSource,
  SELECT_PAYMENT_METHOD,
} from "~/domain/payment-step";
import { type BillingProfileInput, type CardFormInput, type ShippingAddressInput } from "~/domain/billing-forms";
import { countryName } from "~/domain/countries";
import { phoneFormValues } from "./contact-options.server";
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
} from "~/server/billing/index.server";
import { addCard, finishCardSetup, replaceCard, type CardForm, type CardSave } from "./payment-methods.server";
import { cardAuthenticationOf, claimCardAuthentication, recordCardAuthentication } from "./card-authentications.server";
import {
  type Scope,
  memberActor,
  recordProviderOnlyChange,
  assignBillingCustomerId,
  saveShippingAddress,
} from "~/server/accounts/index.server";
import { getCards } from "~/server/cards/index.server";
import { parseGatewayReference } from "~/server/providers/card-gateway.server";
import { holdCardSlot, releaseCardSlot } from "~/server/platform/throttle.server";
import { TAX_ID_STATUS_WORDS } from "~/domain/tax-ids";
import { checkVatNumber, providerStatusOf, recheckLater, saveTaxId, taxIdOf, type TaxIdRecord } from "./tax-ids.server";

/**
 * The organization's billing data (cards, billing profile, shipping address) for the /account page, its
 * drawers and the wizards' payment step, read and changed through the billing and card ports. Every
 * call is scoped to the organization's billing customer; the member acting gives the contact details a new
 * customer starts with and the defaults a form offers.
 */

/**
 * The organization's billing customer, created on first need (an organization that never bought anything has
 * none), with the acting member as its contact and the organization's name as the company.
 */
export async function ensureBillingCustomer(
  { user, organization }: Scope,
  billing: BillingProvider = getBilling(),
): Promise<string> {
  const customerId = organization.billingCustomerId ?? (await assignBillingCustomerId(organization.id));
  const { firstName, lastName, email, phone } = user;
  await billing.ensureCustomer(
    customerId,
    { firstName, lastName, email, phone, company: organization.name },
    `ensure-customer:${customerId}`,
  );
  return customerId;
}

const isNotFound = (error: unknown) => error instanceof ProviderError && error.code === "not_found";

/** The customer, or null while none exists at the provider yet. */
async function findCustomer(
  { organization }: Pick<Scope, "organization">,
  billing: BillingProvider,
): Promise<Customer | null> {
  if (!organization.billingCustomerId) return null;
  try {
    return await billing.retrieveCustomer(organization.billingCustomerId);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

async function listSources(
  { organization }: Pick<Scope, "organization">,
  billing: BillingProvider,
): Promise<PaymentSource[]> {
  return organization.billingCustomerId ? billing.listPaymentSources(organization.billingCustomerId) : [];
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

function readBilling(scope: Scope, billing: BillingProvider): Promise<BillingRead> {
  return Promise.all([load(listSources(scope, billing)), load(findCustomer(scope, billing))]);
}

function paymentStepOf([sources, customer]: BillingRead, { organization }: Scope): PaymentStepData {
  if (!sources.ok || !customer.ok) return { status: "error" };
  const billingAddress = addressView(customer.value?.billingAddress);
  const shippingAddress = addressView(organization.shippingAddress);
  return {
    status: "ready",
    sources: sources.value.map(sourceView),
    preselectedSourceId: preselectSource(sources.value, customer.value?.primaryPaymentSourceId ?? null),
    billingAddress,
    shippingAddress,
    addressesValid: areAddressesValid(billingAddress, shippingAddress),
  };
}

/**
 * The card the organization's renewals are charged to (the one its payment step preselects: the primary, else the
 * only valid one), or null when it has none to charge. A provider failure is thrown: a caller that can wait (a
 * mail's job) tries again rather than saying there is no card.
 */
export async function renewalCardOf(
  organization: Pick<Scope, "organization">,
  billing: BillingProvider = getBilling(),
): Promise<PaymentSourceView | null> {
  const [sources, customer] = await Promise.all([
    listSources(organization, billing),
    findCustomer(organization, billing),
  ]);
  const chosen = preselectSource(sources, customer?.primaryPaymentSourceId ?? null);
  const source = sources.find((candidate) => candidate.id === chosen);
  return source ? sourceView(source) : null;
}

/** What the payment step shows for the organization; "error" when the cards or the customer fail to load. */
export async function loadPaymentStep(scope: Scope, billing: BillingProvider = getBilling()): Promise<PaymentStepData> {
  return paymentStepOf(await readBilling(scope, billing), scope);
}

/** The /account page: the payment step's data and the billing profile ("error" when it failed to load). */
export async function loadAccountBilling(scope: Scope, billing: BillingProvider = getBilling()) {
  const [read, taxId] = await Promise.all([readBilling(scope, billing), taxIdOf(scope.organization.id)]);
  const [, customer] = read;
  const billingProfile: BillingProfileView | null | "error" = customer.ok
    ? profileView(customer.value, taxId)
    : "error";
  return { payment: paymentStepOf(read, scope), billingProfile };
}

function profileView(customer: Customer | null, taxId: TaxIdRecord | null): BillingProfileView | null {
  if (!customer) return null;
  const { firstName, lastName, email, phone, company, vatNumber } = customer;
  // The register's word on the number the provider has; a number the portal has no check of is not yet checked.
  const checked = taxId?.vatNumber === vatNumber ? taxId : null;
  return {
    firstName,
    lastName,
    email,
    phone,
    company,
    vat: vatNumber
      ? {
          number: vatNumber,
          status: TAX_ID_STATUS_WORDS[checked?.status ?? "pending"],
          checkedAt: checked?.checkedAt?.toISOString() ?? null,
          registerName: checked?.registerName ?? null,
        }
      : null,
  };
}

export type PaymentChoice =
  | { ok: true; paymentSourceId: string; billingAddress: AddressView | null; shippingAddress: AddressView | null }
  | { ok: false; message: string };

/**
 * For a wizard's Next: the posted payment_source_id checked against the organization's own usable cards, and
 * the billing and shipping addresses checked as complete. When either is missing, the message says which the
 * customer must fix (a card to select, or the addresses).
 */
export async function choosePayment(
  scope: Scope,
  formData: FormData,
  billing: BillingProvider = getBilling(),
  { withAddresses = true } = {},
): Promise<PaymentChoice> {
  const step = await loadPaymentStep(scope, billing);
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

/** The organization's card with this id; null when it is not its own (or does not exist). */
export async function findOwnSource(scope: Scope, sourceId: string, billing: BillingProvider = getBilling()) {
  return (await listSources(scope, billing)).find((source) => source.id === sourceId) ?? null;
}

export async function hasCard(scope: Scope, billing: BillingProvider = getBilling()): Promise<boolean> {
  return (await listSources(scope, billing)).length > 0;
}

const cardName = (source: PaymentSource) =>
  source.card ? `${source.card.brand} ending ${source.card.last4}` : "a card";

/** Where the card provider's bank page sends the cardholder back to (the route that finishes the save). */
const CARD_SETUP_RETURN = "/account/cards/return";

function cardFormOf(form: FormData, input: CardFormInput, closeTo: string): CardForm {
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
    returnUrl: CARD_SETUP_RETURN,
    cancelUrl: closeTo,
  };
}

/**
 * What a card form of the organization needs to take a card (Stripe's SetupIntent is made for the organization's
 * billing customer, and for a replacement for the gateway customer that keeps the replaced card). The form's key
 * makes a reload of the page make one setup at most per rendered form.
 */
export function cardEntryFor(scope: Scope, replacing: PaymentSource | null, idempotencyKey: string) {
  const owner = async () => {
    const billingCustomerId = await ensureBillingCustomer(scope);
    const reference = replacing ? parseGatewayReference(replacing.referenceId) : null;
    return { billingCustomerId, gatewayCustomer: reference?.gatewayCustomer ?? null };
  };
  return getCards().entryFor({ owner, returnUrl: CARD_SETUP_RETURN }, idempotencyKey);
}

/** A card change's outcome for the page: saved (the new card), or the bank's page to send the cardholder to. */
export type CardChangeOutcome =
  { status: "saved"; source: PaymentSource } | { status: "requires_action"; redirectUrl: string };

/**
 * A save that waits for the cardholder's bank is kept for the return from the bank's page (what it does, the page
 * to go back to), in the organization's name; a saved card is logged.
 */
async function settle(
  scope: Scope,
  save: CardSave,
  pending: { replaces: PaymentSource | null; setAsPrimary: boolean; closeTo: string },
): Promise<CardChangeOutcome> {
  if (save.status === "requires_action") {
    await recordCardAuthentication({
      setupId: save.setupId,
      organizationId: scope.organization.id,
      replacesSourceId: pending.replaces?.id ?? null,
      setAsPrimary: pending.setAsPrimary,
      closeTo: pending.closeTo,
    });
    return { status: "requires_action", redirectUrl: save.redirectUrl };
  }
  await logCardChange(scope, pending.replaces, save.source);
  return save;
}

function logCardChange(scope: Scope, old: PaymentSource | null, source: PaymentSource) {
  return recordProviderOnlyChange({
    organizationId: scope.organization.id,
    actor: memberActor(scope.user),
    ...(old
      ? { action: "card.replaced", summary: `Replaced the card ${cardName(old)} with ${cardName(source)}.` }
      : { action: "card.added", summary: `Added a card: ${cardName(source)}.` }),
  });
}

/**
 * Runs an add holding the organization's card slot, refusing a second card, atomically: the check and the add
 * run holding it, so two tabs (or two members) cannot both add.
 */
async function inCardSlot<T>(scope: Scope, add: () => Promise<T>): Promise<T> {
  const { organization } = scope;
  if (!(await holdCardSlot(organization.id))) throw new OneCardLimitError();
  try {
    if (await hasCard(scope)) throw new OneCardLimitError();
    return await add();
  } finally {
    await releaseCardSlot(organization.id);
  }
}

/**
 * Adds the organization's card, one at most (inCardSlot). The key belongs to the rendered form (a double submit
 * adds one). The card is the provider's: the log records it once the provider took it. `closeTo` is the page the
 * return from the bank's page goes back to, when the bank asks.
 */
export async function addCardFor(
  scope: Scope,
  form: FormData,
  input: CardFormInput,
  idempotencyKey: string,
  closeTo: string,
): Promise<CardChangeOutcome> {
  return inCardSlot(scope, async () => {
    const customerId = await ensureBillingCustomer(scope);
    const save = await addCard(customerId, cardFormOf(form, input, closeTo), idempotencyKey);
    return settle(scope, save, { replaces: null, setAsPrimary: input.set_as_primary, closeTo });
  });
}

/** Replaces one of the organization's cards (the caller has checked it is its own) with the posted one. */
export async function replaceCardFor(
  scope: Scope,
  old: PaymentSource,
  form: FormData,
  input: CardFormInput,
  idempotencyKey: string,
  closeTo: string,
): Promise<CardChangeOutcome> {
  const customerId = await ensureBillingCustomer(scope);
  const save = await replaceCard(customerId, old.id, cardFormOf(form, input, closeTo), idempotencyKey);
  return settle(scope, save, { replaces: old, setAsPrimary: input.set_as_primary, closeTo });
}

/** What the return from the bank's page came to, and the page to go back to. */
export type CardReturn =
  | { status: "saved"; replaced: boolean; closeTo: string }
  | { status: "failed"; message: string | null; closeTo: string }
  | { status: "used"; closeTo: string }
  | { status: "requires_action"; redirectUrl: string };

/**
 * Finishes a card save the bank asked about, when the cardholder comes back from the bank's page: null when the
 * setup is not one of the organization's. The save is claimed once (a reload, a second tab or a replayed return
 * finds it used); a cardholder back without an answer goes to the bank's page again. A failed authentication
 * or a refusal is the provider's message; a replaced card stays until the new one is saved.
 */
export async function finishCardSaveFor(scope: Scope, setupId: string): Promise<CardReturn | null> {
  const organizationId = scope.organization.id;
  const attempt = await cardAuthenticationOf(organizationId, setupId);
  if (!attempt) return null;
  const { closeTo } = attempt;
  if (attempt.usedAt) return { status: "used", closeTo };
  const outcome = await getCards().setupOutcome(setupId);
  if (outcome.status === "requires_action") return outcome;
  if (!(await claimCardAuthentication(organizationId, setupId))) return { status: "used", closeTo };
  const use = { replaces: attempt.replacesSourceId, setAsPrimary: attempt.setAsPrimary };
  try {
    const old = use.replaces ? await findOwnSource(scope, use.replaces) : null;
    const finish = async () => finishCardSetup(await ensureBillingCustomer(scope), setupId, outcome, use);
    const save = use.replaces ? await finish() : await inCardSlot(scope, finish);
    if (save.status === "requires_action") return save;
    await logCardChange(scope, old, save.source);
    return { status: "saved", replaced: old !== null, closeTo };
  } catch (error) {
    if (error instanceof OneCardLimitError) return { status: "failed", message: ONE_CARD_ONLY, closeTo };
    if (!(error instanceof ProviderError)) throw error;
    return { status: "failed", message: error.providerMessage ?? null, closeTo };
  }
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

/**
 * The billing profile form's starting values: the customer's, or before a customer exists the acting member's
 * own, with the organization's name and the country it gave.
 */
export async function billingProfileDefaults(scope: Scope, billing: BillingProvider = getBilling()) {
  const customer = await findCustomer(scope, billing);
  if (customer)
    return { ...addressFormValues(customer, customer.billingAddress), vat_number: customer.vatNumber ?? "" };
  const { user, organization } = scope;
  return {
    ...addressFormValues(
      { ...user, company: organization.name },
      organization.country ? { country: organization.country } : null,
    ),
    vat_number: "",
  };
}

/**
 * Saves the billing profile with two provider calls: the contact details, then the billing fields (the address
 * and the VAT number, all of them on every save: the provider removes what the call leaves out). It succeeds only
 * when both do; a failure of either is thrown. A VAT number is checked with the register first, so that the
 * provider has its status; one the register could not check yet is saved as 'not yet checked' and checked again
 * by a job.
 */
export async function saveBillingProfile(
  scope: Scope,
  input: BillingProfileInput,
  billing: BillingProvider = getBilling(),
) {
  const customerId = await ensureBillingCustomer(scope, billing);
  const { first_name: firstName, last_name: lastName, email, phone, company } = input;
  await billing.updateCustomer(customerId, { firstName, lastName, email, phone, company });
  const { line1, line2, city, state, zip, country, vat_number } = input;
  const checked = vat_number ? await checkVatNumber(vat_number) : null;
  await billing.updateBillingInfo(customerId, {
    billingAddress: { firstName, lastName, line1, line2, city, state, zip, country },
    vatNumber: checked?.vatNumber ?? null,
    vatNumberStatus: checked ? providerStatusOf(checked.status) : "unchecked",
  });
  const organizationId = scope.organization.id;
  await saveTaxId(organizationId, checked);
  if (checked?.status === "pending") await recheckLater(organizationId, checked.vatNumber);
  const vat = checked ? `, VAT number ${checked.vatNumber} (${TAX_ID_STATUS_WORDS[checked.status]})` : "";
  await recordProviderOnlyChange({
    organizationId,
    actor: memberActor(scope.user),
    action: "billing_profile.updated",
    summary: `Changed the billing profile: ${firstName} ${lastName}, ${company ? `${company}, ` : ""}${line1}, ${city}${vat}.`,
  });
}

export function shippingDefaults({ organization }: Scope) {
  return addressFormValues(organization.shippingAddress ?? {}, organization.shippingAddress);
}

export async function saveShipping(scope: Scope, input: ShippingAddressInput) {
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
  await saveShippingAddress(
    scope.organization.id,
    { firstName, lastName, email, phone, company, line1, line2, city, state, zip, country },
    memberActor(scope.user),
  );
}

/** Back to "same as billing address". */
export async function clearShipping(scope: Scope) {
  await saveShippingAddress(scope.organization.id, null, memberActor(scope.user));
}
