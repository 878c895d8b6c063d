import { getBilling, notFound, refused, type BillingProvider, type PaymentSource } from "~/server/billing/index.server";
import { CardError } from "~/server/cards/errors.server";
import {
  getCards,
  type CardHolder,
  type CardOwner,
  type CardProvider,
  type CardSetup,
  type GatewayPaymentMethod,
} from "~/server/cards/index.server";
import { INVALID_CUSTOMER_ID, parseGatewayReference } from "~/server/providers/card-gateway.server";

/** A posted card form: the card part (fields, or the setup the browser confirmed), the holder, and set_as_primary. */
export interface CardForm {
  form: FormData;
  holder: CardHolder;
  setAsPrimary: boolean;
  /** Where the bank's page sends the cardholder back to, when their bank asks them to authenticate the card. */
  returnUrl: string;
  /** Where a cardholder who gives up on the card provider's own card page goes back to. */
  cancelUrl: string;
}

/** A card save's outcome: saved, or waiting for the cardholder's bank (a declined card throws a CardError). */
export type CardSave =
  { status: "saved"; source: PaymentSource } | { status: "requires_action"; setupId: string; redirectUrl: string };

interface Providers {
  billing: BillingProvider;
  cards: CardProvider;
}

const configured = (): Providers => ({ billing: getBilling(), cards: getCards() });

/**
 * Card idempotency keys are namespaced by the customer: a key copied from another customer's
 * form can never replay or collide with that customer's request at the provider.
 */
const keyFor = (customerId: string, idempotencyKey: string, step: string) => `${customerId}:${idempotencyKey}:${step}`;

/** What a setup saved: a one-time token, or a payment method the card gateway keeps for its customer. */
type SavedCard = { token: string } | { paymentMethod: GatewayPaymentMethod };

/** The card a setup saved, or the wait for the bank; a declined card is the card field's refusal. */
function savedCardOf(setup: CardSetup): SavedCard | Extract<CardSave, { status: "requires_action" }> {
  if (setup.status === "declined") {
    throw new CardError(setup.message, {
      kind: "final",
      providerMessage: setup.message,
      code: setup.code,
      field: "card",
    });
  }
  if (setup.status === "requires_action") return setup;
  return "token" in setup ? { token: setup.token } : { paymentMethod: setup.paymentMethod };
}

/** A card form's setup request, for the card of `owner`. */
const setupRequestOf = ({ form, holder, returnUrl, cancelUrl }: CardForm, owner: CardOwner) => ({
  form,
  holder,
  returnUrl,
  cancelUrl,
  owner: () => Promise.resolve(owner),
});

/** What a save does with a card once its setup succeeded: a new card, or one replacing the card `replaces`. */
export interface SetUpCardUse {
  replaces: string | null;
  setAsPrimary: boolean;
}

/**
 * Adding a card: a setup with the card provider, then a payment source from its token. The key is per form
 * submission, so a double submit adds one card (or waits on one setup).
 */
export async function addCard(
  customerId: string,
  card: CardForm,
  idempotencyKey: string,
  providers: Providers = configured(),
): Promise<CardSave> {
  const owner = { billingCustomerId: customerId, gatewayCustomer: null };
  const setup = savedCardOf(
    await providers.cards.setUpCard(setupRequestOf(card, owner), keyFor(customerId, idempotencyKey, "token")),
  );
  if ("status" in setup) return setup;
  const use = { replaces: null, setAsPrimary: card.setAsPrimary };
  return { status: "saved", source: await saveCard(customerId, setup, use, idempotencyKey, providers) };
}

/**
 * Replacing a card: a setup with the card provider, then (once its token is there) the new card in place of the
 * old one. The old card stays until the new one is saved, so a refusal or an abandoned authentication keeps it.
 */
export async function replaceCard(
  customerId: string,
  oldSourceId: string,
  card: CardForm,
  idempotencyKey: string,
  providers: Providers = configured(),
): Promise<CardSave> {
  const { reference } = await referenceOfSource(customerId, oldSourceId, providers.billing);
  // The new card is kept by the gateway customer that keeps the old one.
  const owner = { billingCustomerId: customerId, gatewayCustomer: reference.gatewayCustomer };
  const setup = savedCardOf(
    await providers.cards.setUpCard(setupRequestOf(card, owner), keyFor(customerId, idempotencyKey, "token")),
  );
  if ("status" in setup) return setup;
  const use = { replaces: oldSourceId, setAsPrimary: card.setAsPrimary };
  return { status: "saved", source: await saveCard(customerId, setup, use, idempotencyKey, providers) };
}

/**
 * Saves the card of a setup the bank asked about, from its outcome once the cardholder is back: still waiting
 * when they did not answer; the refusal (a CardError) when they failed the authentication. The setup's id keys
 * each step, so a repeat finishes the same save instead of making a second card.
 */
export async function finishCardSetup(
  customerId: string,
  setupId: string,
  outcome: CardSetup,
  use: SetUpCardUse,
  providers: Providers = configured(),
): Promise<CardSave> {
  const setup = savedCardOf(outcome);
  if ("status" in setup) return setup;
  return { status: "saved", source: await saveCard(customerId, setup, use, `setup:${setupId}`, providers) };
}

async function referenceOfSource(customerId: string, sourceId: string, billing: BillingProvider) {
  const old = (await billing.listPaymentSources(customerId)).find((source) => source.id === sourceId);
  if (!old) throw notFound(`Payment source ${sourceId}`);
  const reference = parseGatewayReference(old.referenceId);
  if (!reference) throw refused(INVALID_CUSTOMER_ID, "invalid_reference");
  return { old, reference };
}

/**
 * A saved card as a payment source. A payment method the gateway keeps for its customer (a SetupIntent's) is
 * stored by its reference. A token's new card is made from the token outright; a token's replacement goes token,
 * payment method, attached to the gateway customer that holds the old card, and a payment source from it. A
 * replaced card is removed from billing after the new card is added, so a failure part-way never leaves the
 * customer without a card; each step has its own key, so repeating a call that failed part-way finishes it
 * without a second card.
 */
async function saveCard(
  customerId: string,
  card: SavedCard,
  use: SetUpCardUse,
  idempotencyKey: string,
  { billing, cards }: Providers,
): Promise<PaymentSource> {
  const sourceKey = keyFor(customerId, idempotencyKey, "source");
  const { setAsPrimary } = use;
  const old = use.replaces ? await referenceOfSource(customerId, use.replaces, billing) : null;
  if ("paymentMethod" in card)
    return storeMethod(customerId, card.paymentMethod, old, setAsPrimary, sourceKey, billing);
  if (!old) {
    return billing.createPaymentSourceFromTempToken({ customerId, tmpToken: card.token, setAsPrimary }, sourceKey);
  }
  const { gatewayCustomer } = old.reference;
  const { id } = await cards.createPaymentMethod(card.token, keyFor(customerId, idempotencyKey, "payment-method"));
  await cards.attachPaymentMethod(id, gatewayCustomer, keyFor(customerId, idempotencyKey, "attach"));
  return storeMethod(customerId, { gatewayCustomer, id }, old, setAsPrimary, sourceKey, billing);
}

/** A payment method the gateway customer keeps as a payment source, then the card it replaces (if any) removed. */
async function storeMethod(
  customerId: string,
  method: GatewayPaymentMethod,
  replaced: { old: PaymentSource } | null,
  setAsPrimary: boolean,
  sourceKey: string,
  billing: BillingProvider,
): Promise<PaymentSource> {
  const created = await billing.createPaymentSourceFromPermanentToken(
    { customerId, referenceId: `${method.gatewayCustomer}/${method.id}`, setAsPrimary },
    sourceKey,
  );
  if (replaced) await billing.deleteLocalPaymentSource(customerId, replaced.old.id);
  return created;
}
