import { getBilling, notFound, refused, type BillingProvider, type PaymentSource } from "~/server/billing/index.server";
import { getCards, type CardHolder, type CardProvider } from "~/server/cards/index.server";
import { INVALID_CUSTOMER_ID, parseGatewayReference } from "~/server/providers/card-gateway.server";

/** A posted card form: the card part (fields or a browser token), the holder, and set_as_primary. */
export interface CardForm {
  form: FormData;
  holder: CardHolder;
  setAsPrimary: boolean;
}

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

/**
 * Adding a card: a one-time token from the card provider, then a payment source from it.
 * The key is per form submission, so a double submit adds one card.
 */
export async function addCard(
  customerId: string,
  card: CardForm,
  idempotencyKey: string,
  { billing, cards }: Providers = configured(),
): Promise<PaymentSource> {
  const tmpToken = await cards.temporaryToken(card.form, card.holder, keyFor(customerId, idempotencyKey, "token"));
  return billing.createPaymentSourceFromTempToken(
    { customerId, tmpToken, setAsPrimary: card.setAsPrimary },
    keyFor(customerId, idempotencyKey, "source"),
  );
}

/**
 * Replacing a card: token, payment method, attached to the gateway customer that holds the
 * old card, a new payment source from it, and the old one removed from billing. The new card is added
 * before the old one goes, so a failure part-way never leaves the customer without a card; each step has
 * its own key, so repeating a call that failed part-way finishes it without a second card.
 */
export async function replaceCard(
  customerId: string,
  oldSourceId: string,
  card: CardForm,
  idempotencyKey: string,
  { billing, cards }: Providers = configured(),
): Promise<PaymentSource> {
  const old = (await billing.listPaymentSources(customerId)).find((source) => source.id === oldSourceId);
  if (!old) throw notFound(`Payment source ${oldSourceId}`);
  const reference = parseGatewayReference(old.referenceId);
  if (!reference) throw refused(INVALID_CUSTOMER_ID, "invalid_reference");

  const token = await cards.temporaryToken(card.form, card.holder, keyFor(customerId, idempotencyKey, "token"));
  const method = await cards.createPaymentMethod(token, keyFor(customerId, idempotencyKey, "payment-method"));
  await cards.attachPaymentMethod(method.id, reference.gatewayCustomer, keyFor(customerId, idempotencyKey, "attach"));
  const created = await billing.createPaymentSourceFromPermanentToken(
    { customerId, referenceId: `${reference.gatewayCustomer}/${method.id}`, setAsPrimary: card.setAsPrimary },
    keyFor(customerId, idempotencyKey, "source"),
  );
  await billing.deleteLocalPaymentSource(customerId, old.id);
  return created;
}
