import { db } from "~/server/platform/database/db.server";
import { env } from "~/server/platform/config/env.server";
import { chargebeeSdk, createChargebeeBilling } from "./chargebee/adapter.server";
import type { WebhookCredentials } from "./chargebee/events.server";
import { withInputChecks } from "./input-checks.server";
import { observedCalls } from "~/server/platform/provider-calls.server";
import { createLocalBilling, type ClockAdvance, type EmbeddedBilling } from "./local/engine.server";
import { clearBillingFaults, injectBillingFault, type Fault } from "./local/faults.server";
import type { BillingCall, BillingProvider, InvoiceParty, ProviderEvent } from "./port.server";

export * from "~/server/platform/provider-errors.server";
export * from "./errors.server";
export * from "./port.server";
export type { Fault } from "./local/faults.server";
export type { ClockAdvance } from "./local/engine.server";
export { parseChargebeeWebhook, webhookAuthorized, type WebhookCredentials } from "./chargebee/events.server";

let provider: BillingProvider | undefined;
let embedded: EmbeddedBilling | null = null;

/** Starts loading Chargebee's SDK in the background when Chargebee bills (the embedded engine needs none). */
export function preloadBillingSdk(): void {
  if (env.BILLING_PROVIDER === "chargebee") chargebeeSdk.preload();
}

/** The configured billing provider (BILLING_PROVIDER): the embedded engine unless Chargebee is chosen. */
export function getBilling(): BillingProvider {
  if (!provider) {
    embedded =
      env.BILLING_PROVIDER === "chargebee"
        ? null
        : createLocalBilling({ store: db, seller: configuredSeller(), onEvents: tellEventListeners });
    provider = withInputChecks(
      embedded
        ? observedCalls("embedded-billing", embedded, { embedded: true })
        : observedCalls("chargebee", createChargebeeBilling(chargebeeOptions()), { embedded: false }),
    );
  }
  return provider;
}

/**
 * The seller the embedded engine's invoices name, from the configuration (env.server requires it with the
 * embedded engine, or gives a demo's).
 */
function configuredSeller(): InvoiceParty {
  const { SELLER_LEGAL_NAME: name, SELLER_ADDRESS: addressLines, SELLER_VAT_NUMBER: vatNumber } = env;
  if (!name || !addressLines || !vatNumber) throw new Error("The seller is not configured.");
  return { name, address: null, addressLines, vatNumber, vatNumberValid: true };
}

/**
 * The seller as the portal's own documents (quotes) print it: the configured one, or GateKeeper alone where none
 * is configured (Chargebee renders its invoices, so it needs none).
 */
export function sellerLines(): string[] {
  const { SELLER_LEGAL_NAME: name, SELLER_ADDRESS: addressLines, SELLER_VAT_NUMBER: vatNumber } = env;
  if (!name) return ["GateKeeper"];
  return [name, ...(addressLines ?? []), ...(vatNumber ? [`VAT number: ${vatNumber}`] : [])];
}

/**
 * Names the configured seller on the embedded engine's invoices issued before invoices kept their parties: a
 * start-up step (the data migration could record only what the database knew). Nothing to do with Chargebee.
 */
export async function recordSellerOnEarlierInvoices(): Promise<number> {
  getBilling();
  return embedded ? embedded.recordSellerOnEarlierInvoices() : 0;
}

/** The embedded engine's clock and its time machine; Chargebee's time is Chargebee's, so there is none with it. */
export interface BillingClock {
  now(): Promise<Date>;
  /** Moves the engine's clock forward by whole days, processing everything that falls due on the way. */
  advance(days: number): Promise<ClockAdvance>;
}

export function getBillingClock(): BillingClock | null {
  getBilling();
  const engine = embedded;
  return engine && { now: () => engine.clockNow(), advance: (days) => engine.advanceClock(days) };
}

/**
 * The portal's "now" for what follows the billing provider's dates (decision 187): whether a license is active,
 * its days left, which licenses a Hub or an update may use, when a trial starts, when a renewal is due. With the
 * embedded billing engine it is the engine's clock, which the time machine moves in demo mode, so that a license
 * renewed, stopped or ended by the machine shows so at once; with Chargebee it is real time. Sessions, tokens,
 * throttles and jobs keep real time.
 */
export async function portalNow(): Promise<Date> {
  const clock = getBillingClock();
  return clock ? clock.now() : new Date();
}

type EventListener = (events: ProviderEvent[]) => void | Promise<void>;
const eventListeners = new Set<EventListener>();

/**
 * Tells the listener, in this process and after each embedded engine call commits, of the events the call
 * recorded (Chargebee's events reach the portal as webhooks instead). Events recorded by other processes, or
 * while a listener failed, are only in listEvents: the listener saves a poll, not the need for one. Returns the
 * function that stops it.
 */
export function onBillingEvents(listener: EventListener): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

async function tellEventListeners(events: ProviderEvent[]) {
  for (const listener of eventListeners) await listener(events);
}

function chargebeeOptions() {
  const { CHARGEBEE_SITE: site, CHARGEBEE_API_KEY: apiKey, CHARGEBEE_GATEWAY_ACCOUNT_ID: gatewayAccountId } = env;
  // env.server refuses to start without them when BILLING_PROVIDER=chargebee; this only satisfies the types.
  if (!site || !apiKey || !gatewayAccountId) throw new Error("Chargebee is not configured.");
  const api = env.CHARGEBEE_API_URL;
  // The SDK's host is the site's name and a suffix: another host is the site's name with no suffix.
  if (!api) return { site, apiKey, gatewayAccountId };
  const endpoint = { protocol: api.protocol, hostSuffix: "", port: api.port };
  return { site: api.host, apiKey, gatewayAccountId, endpoint };
}

/**
 * What Chargebee.js needs on the page where a cardholder authenticates a payment intent: the site and its
 * publishable key; null with the embedded engine, whose bank page is its own.
 */
export function chargebeeJsSettings(): { site: string; publishableKey: string } | null {
  const { CHARGEBEE_SITE: site, CHARGEBEE_PUBLISHABLE_KEY: publishableKey } = env;
  return env.BILLING_PROVIDER === "chargebee" && site && publishableKey ? { site, publishableKey } : null;
}

/** What Chargebee's webhooks must send (basic auth); null with the embedded engine, which sends none. */
export function chargebeeWebhookCredentials(): WebhookCredentials | null {
  const { CHARGEBEE_WEBHOOK_USERNAME: username, CHARGEBEE_WEBHOOK_PASSWORD: password } = env;
  return env.BILLING_PROVIDER === "chargebee" && username && password ? { username, password } : null;
}

/** Fault injection into the embedded engine, for tests and demos (it has no effect on Chargebee). */
export const billingFaults = {
  inject: (call: BillingCall, fault: Fault) => injectBillingFault(db, call, fault),
  clear: () => clearBillingFaults(db),
};
