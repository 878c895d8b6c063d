import { getBilling, notFound, refused, type BillingProvider, type PaymentSource } from "~/server/billing/index.server";
import { CardError } from "~/server/cards/errors.server";
import { getCards, type CardHolder, type CardProvider, type CardSetup } from "~/server/cards/index.server";
import { INVALID_CUSTOMER_ID, parseGatewayReference } from "~/server/providers/card-gateway.server";

/** A posted card form: the card part (fields or a browser token), the holder, and set_as_primary. */
export interface CardForm {
  form: FormData;
  holder: CardHolder;
  setAsPrimary: boolean;
  /** Where the bank's page sends the cardholder back to, when their bank asks them to authenticate the card. */
  returnUrl: string;
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

/** A setup's token once saved, or the wait for the bank; a declined card is the card field's refusal. */
function tokenOf(setup: CardSetup): { token: string } | Extract<CardSave, { status: "requires_action" }> {
  if (setup.status === "declined") {
    throw new CardError(setup.message, {
      kind: "final",
      providerMessage: setup.message,
      code: setup.code,
      field: "card",
    });
  }
  return setup.status === "succeeded" ? { token: setup.token } : setup;
}

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
  const { form, holder, returnUrl } = card;
  const setup = tokenOf(
    await providers.cards.setUpCard({ form, holder, returnUrl }, keyFor(customerId, idempotencyKey, "token")),
  );
  if (!("token" in setup)) return setup;
  const use = { replaces: null, setAsPrimary: card.setAsPrimary };
  return { status: "saved", source: await saveToken(customerId, setup.token, use, idempotencyKey, providers) };
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
  await referenceOfSource(customerId, oldSourceId, providers.billing);
  const { form, holder, returnUrl } = card;
  const setup = tokenOf(
    await providers.cards.setUpCard({ form, holder, returnUrl }, keyFor(customerId, idempotencyKey, "token")),
  );
  if (!("token" in setup)) return setup;
  const use = { replaces: oldSourceId, setAsPrimary: card.setAsPrimary };
  return { status: "saved", source: await saveToken(customerId, setup.token, use, idempotencyKey, providers) };
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
  const setup = tokenOf(outcome);
  if (!("token" in setup)) return setup;
  return { status: "saved", source: await saveToken(customerId, setup.token, use, `setup:${setupId}`, providers) };
}

async function referenceOfSource(customerId: string, sourceId: string, billing: BillingProvider) {
  const old = (await billing.listPaymentSources(customerId)).find((source) => source.id === sourceId);
  if (!old) throw notFound(`Payment source ${sourceId}`);
  const reference = parseGatewayReference(old.referenceId);
  if (!reference) throw refused(INVALID_CUSTOMER_ID, "invalid_reference");
  return { old, reference };
}

/**
 * A saved card's token as a payment source. A new card is made from the token outright. A replacement goes
 * token, payment method, attached to the gateway customer that holds the old card, a new payment source from
 * it, and the old one removed from billing: the new card is added before the old one goes, so a failure
 * part-way never leaves the customer without a card; each step has its own key, so repeating a call that
 * failed part-way finishes it without a second card.
 */
async function saveToken(
  customerId: string,
  token: string,
  use: SetUpCardUse,
  idempotencyKey: string,
  { billing, cards }: Providers,
): Promise<PaymentSource> {
  if (!use.replaces) {
    return billing.createPaymentSourceFromTempToken(
      { customerId, tmpToken: token, setAsPrimary: use.setAsPrimary },
      keyFor(customerId, idempotencyKey, "source"),
    );
  }
  const { old, reference } = await referenceOfSource(customerId, use.replaces, billing);
  const method = await cards.createPaymentMethod(token, keyFor(customerId, idempotencyKey, "payment-method"));
  await cards.attachPaymentMethod(method.id, reference.gatewayCustomer, keyFor(customerId, idempotencyKey, "attach"));
  const created = await billing.createPaymentSourceFromPermanentToken(
    { customerId, referenceId: `${reference.gatewayCustomer}/${method.id}`, setAsPrimary: use.setAsPrimary },
    keyFor(customerId, idempotencyKey, "source"),
  );
  await billing.deleteLocalPaymentSource(customerId, old.id);
  return created;
}
