import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/server/platform/database/db.server";
import { env } from "~/server/platform/config/env.server";
import { readForm } from "~/server/platform/forms.server";
import {
  answerSetup,
  PAYMENT_ID_PREFIX,
  paymentExpired,
  setupOf,
  type VaultSetup,
} from "~/server/providers/card-vault.server";
import { PAYMENT_RETURN, SETUP_RETURN } from "../port.server";

/**
 * The embedded card gateway's bank page (`/cards/authenticate/:attemptId`), like Stripe's 3-D Secure test page:
 * the cardholder completes or fails the authentication, and goes back to the portal's return address with the
 * gateway's parameters, as Stripe sends them back (`setup_intent` or `payment_intent`, and `redirect_status`): a card
 * being saved, or a payment to a saved card the bank asks about while the cardholder is there. It is the bank's page, not
 * the portal's: it needs no sign-in, and the setup's random id is its only key. Only the embedded provider has it.
 */

const missing = () => json({ message: "There is no such authentication." }, { status: 404 });

async function setupFor(attemptId: string | undefined): Promise<VaultSetup> {
  if (env.CARD_PROVIDER !== "local" || !attemptId) throw missing();
  const setup = await setupOf(db, attemptId);
  if (!setup) throw missing();
  return setup;
}

const isPayment = (setup: VaultSetup) => setup.id.startsWith(PAYMENT_ID_PREFIX);

/** The portal's return address with what the gateway tells it; an expired payment is a failed one. */
function returnTo(setup: VaultSetup, expired: boolean): string {
  const [path, query] = setup.returnUrl.split("?");
  const parameters = new URLSearchParams(query);
  parameters.set(isPayment(setup) ? PAYMENT_RETURN.payment : SETUP_RETURN.setup, setup.id);
  parameters.set(SETUP_RETURN.status, setup.status === "failed" || expired ? "failed" : "succeeded");
  return `${path}?${parameters}`;
}

export interface BankPageData {
  /** Waiting for the cardholder's answer, or answered already (a reload, a second tab), or expired. */
  waiting: boolean;
  /** A payment's authentication not answered within its hour: the cardholder goes back for a new one. */
  expired: boolean;
  returnUrl: string;
  /** What the bank asks about: saving the card, or a payment of this many cents. */
  payment: { amount: number; currency: string } | null;
}

/**
 * The page; `now` is the portal's clock (the billing engine's, which made a payment's authentication and expires it),
 * which the route reads: the card gateway does not keep the billing engine's time.
 */
export async function bankPageLoader({ params }: LoaderFunctionArgs, now: Date): Promise<BankPageData> {
  const setup = await setupFor(params.attemptId);
  const payment = isPayment(setup) ? { amount: setup.amount ?? 0, currency: setup.currency ?? "USD" } : null;
  const expired = paymentExpired(setup, now);
  return {
    waiting: setup.status === "requires_action" && !expired,
    expired,
    returnUrl: returnTo(setup, expired),
    payment,
  };
}

/**
 * 'Complete authentication' or 'Fail authentication'; a setup answered already keeps its first answer, and an
 * expired payment takes none (a charge would not spend it anyway: its expiry is checked where it is spent).
 */
export async function bankPageAction({ request, params }: ActionFunctionArgs, now: Date) {
  const setup = await setupFor(params.attemptId);
  const outcome = (await readForm(request)).get("outcome") === "complete" ? "complete" : "fail";
  if (paymentExpired(setup, now)) return redirect(returnTo(setup, true));
  return redirect(returnTo((await answerSetup(db, setup.id, outcome)) ?? setup, false));
}
