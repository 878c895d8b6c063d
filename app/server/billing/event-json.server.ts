import type { Invoice, PaymentSource, ProviderEvent, Subscription } from "./port.server";

/**
 * An event's resources as JSON keeps them (the embedded engine's events table, the portal's provider_events) and
 * back: JSON gives dates back as ISO strings, which are made Dates again here.
 */
export type EventResources = Pick<ProviderEvent, "subscription" | "invoice" | "paymentSource">;

/** A value as JSON gives it back: its dates as ISO strings. */
type Stored<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

const dateOf = (value: string | null) => (value === null ? null : new Date(value));

/** The resources of an event as JSON, to store. */
export function eventResourcesJson({ subscription, invoice, paymentSource }: EventResources): Record<string, unknown> {
  return JSON.parse(JSON.stringify({ subscription, invoice, paymentSource })) as Record<string, unknown>;
}

/** The resources of an event, from what eventResourcesJson (or the engine) stored. */
export function eventResourcesOfJson(content: Record<string, unknown>): EventResources {
  const stored = content as {
    subscription?: Stored<Subscription> | null;
    invoice?: Stored<Invoice> | null;
    paymentSource?: PaymentSource | null;
  };
  return {
    subscription: stored.subscription ? subscriptionOfJson(stored.subscription) : null,
    invoice: stored.invoice ? invoiceOfJson(stored.invoice) : null,
    paymentSource: stored.paymentSource ?? null,
  };
}

function subscriptionOfJson(stored: Stored<Subscription>): Subscription {
  return {
    ...stored,
    currentTermStart: dateOf(stored.currentTermStart),
    currentTermEnd: dateOf(stored.currentTermEnd),
    nextBillingAt: dateOf(stored.nextBillingAt),
    cancelledAt: dateOf(stored.cancelledAt),
    dueSince: dateOf(stored.dueSince),
  };
}

function invoiceOfJson(stored: Stored<Invoice>): Invoice {
  return {
    ...stored,
    date: new Date(stored.date),
    paidAt: dateOf(stored.paidAt),
    nextRetryAt: dateOf(stored.nextRetryAt),
    // Events stored before invoices said why a payment failed do not say.
    paymentFailure: stored.paymentFailure ?? null,
    // Events stored before invoices named their parties have neither.
    billedTo: stored.billedTo ?? null,
    poNumber: stored.poNumber ?? null,
    lineItems: stored.lineItems.map((item) => ({
      ...item,
      dateFrom: item.dateFrom && new Date(item.dateFrom),
      dateTo: item.dateTo && new Date(item.dateTo),
    })),
  };
}
