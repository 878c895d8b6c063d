import { once, wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import { CardError } from "../errors.server";
import {
  CARD_FIELDS,
  type CardEntryMode,
  type CardProvider,
  type CardSetup,
  type CardSetupRequest,
} from "../port.server";
import { checkCard } from "~/server/providers/test-cards.server";
import {
  attachPaymentMethod,
  bankPageUrl,
  paymentMethodFromToken,
  SETUP_AUTHENTICATION_FAILED,
  SETUP_ID_PREFIX,
  setupOf,
  startSetup,
  storeToken,
  type VaultSetup,
} from "~/server/providers/card-vault.server";

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** A refusal of the card gateway, shown next to the card field. */
const cardRefusal = (message: string, code: string) =>
  new CardError(message, { kind: "final", providerMessage: message, code, field: "card" });

function outcomeOf(setup: VaultSetup): CardSetup {
  if (setup.status === "succeeded") return { status: "succeeded", token: setup.tokenId };
  if (setup.status === "failed") return { status: "declined", ...SETUP_AUTHENTICATION_FAILED };
  return { status: "requires_action", setupId: setup.id, redirectUrl: bankPageUrl(setup.id) };
}

/**
 * The embedded card provider: the card fields post to the server like any other field (so card entry
 * works without JavaScript), are checked like Stripe checks them, and only brand, last four digits and
 * expiry are kept, behind a one-time token. A card whose bank asks for 3-D Secure (Stripe's test numbers for
 * it) waits for the cardholder on the provider's own bank page, a plain form, before its token can be used.
 */
class LocalCards implements CardProvider {
  readonly name = "local";

  constructor(
    private readonly store: EmbeddedStore,
    private readonly clock: () => Date,
  ) {}

  /** Plain fields, posted with the form: nothing to make first. */
  async entryFor(): Promise<CardEntryMode> {
    return { mode: "local" };
  }

  async setUpCard({ form, holder, returnUrl }: CardSetupRequest, idempotencyKey: string): Promise<CardSetup> {
    const now = wholeSeconds(this.clock());
    const checked = checkCard(
      {
        number: field(form, CARD_FIELDS.number),
        expiry: field(form, CARD_FIELDS.expiry),
        cvc: field(form, CARD_FIELDS.cvc),
      },
      now,
    );
    if (!checked.ok) return { status: "declined", code: checked.code, message: checked.message };
    const card = { ...checked.card, firstName: holder.firstName, lastName: holder.lastName };
    const made = await once(this.store, idempotencyKey, "cards.setUpCard", now, async (tx) => {
      const token = await storeToken(tx, card, now);
      // Both kinds of card that ask are asked when saved; the card keeps which, for the charges to come.
      return card.authentication ? startSetup(tx, token, returnUrl, now) : token;
    });
    // What `once` recorded is the token of a card saved outright, or the setup that waits for the bank.
    return made.startsWith(SETUP_ID_PREFIX) ? this.setupOutcome(made) : { status: "succeeded", token: made };
  }

  async setupOutcome(setupId: string): Promise<CardSetup> {
    const setup = await setupOf(this.store, setupId);
    if (!setup) throw cardRefusal(`No such setupintent: '${setupId}'`, "resource_missing");
    return outcomeOf(setup);
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
