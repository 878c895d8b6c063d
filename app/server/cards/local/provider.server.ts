import { once, wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import { CardError } from "../errors.server";
import { CARD_FIELDS, type CardHolder, type CardProvider } from "../port.server";
import { checkCard } from "~/server/providers/test-cards.server";
import { attachPaymentMethod, paymentMethodFromToken, storeToken } from "~/server/providers/card-vault.server";

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** A refusal of the card gateway, shown next to the card field. */
const cardRefusal = (message: string, code: string) =>
  new CardError(message, { kind: "final", providerMessage: message, code, field: "card" });

/**
 * The embedded card provider: the card fields post to the server like any other field (so card entry
 * works without JavaScript), are checked like Stripe checks them, and only brand, last four digits and
 * expiry are kept, behind a one-time token.
 */
class LocalCards implements CardProvider {
  readonly name = "local";
  readonly entry = { mode: "local" } as const;

  constructor(
    private readonly store: EmbeddedStore,
    private readonly clock: () => Date,
  ) {}

  async temporaryToken(form: FormData, holder: CardHolder, idempotencyKey: string) {
    const now = wholeSeconds(this.clock());
    const checked = checkCard(
      {
        number: field(form, CARD_FIELDS.number),
        expiry: field(form, CARD_FIELDS.expiry),
        cvc: field(form, CARD_FIELDS.cvc),
      },
      now,
    );
    if (!checked.ok) throw cardRefusal(checked.message, checked.code);
    const card = { ...checked.card, firstName: holder.firstName, lastName: holder.lastName };
    return once(this.store, idempotencyKey, "cards.temporaryToken", now, (tx) => storeToken(tx, card, now));
  }

  async createPaymentMethod(token: string, idempotencyKey: string) {
    const now = wholeSeconds(this.clock());
    const id = await once(this.store, idempotencyKey, "cards.createPaymentMethod", now, async (tx) => {
      const made = await paymentMethodFromToken(tx, token, now);
      if (!made) throw cardRefusal(`No such token: '${token}'`, "resource_missing");
      return made;
    });
    return { id };
  }

  async attachPaymentMethod(paymentMethodId: string, gatewayCustomer: string) {
    if (!(await attachPaymentMethod(this.store, paymentMethodId, gatewayCustomer))) {
      throw cardRefusal(`No such PaymentMethod: '${paymentMethodId}'`, "resource_missing");
    }
  }
}

export function createLocalCards({
  store,
  now = () => new Date(),
}: {
  store: EmbeddedStore;
  now?: () => Date;
}): CardProvider {
  return new LocalCards(store, now);
}
