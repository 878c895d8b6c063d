import { createHash, timingSafeEqual } from "node:crypto";
import type {
  Invoice as ChargebeeInvoice,
  PaymentSource as ChargebeePaymentSource,
  Subscription as ChargebeeSubscription,
  WebhookEventTypeValue,
} from "chargebee";
import { z } from "zod";
import { refused } from "../errors.server";
import type { ProviderEvent, ProviderEventType, ProviderResourceType } from "../port.server";
import { invoiceOf, paymentSourceOf, subscriptionOf } from "./mapping.server";

/**
 * Chargebee's events in the portal's terms: those its webhooks post and its events list gives, which have one
 * shape (an event id, occurred_at in epoch seconds, event_type, and `content` with the resources after the
 * change, each with its resource_version). Nothing of Chargebee's shapes leaves this file.
 */

/** Chargebee's event types (Product Catalog 1.0) the portal acts on; every other type is `other`, kept as it came. */
const EVENT_TYPES: Partial<Record<WebhookEventTypeValue, ProviderEventType>> = {
  subscription_created: "subscription_created",
  subscription_created_with_backdating: "subscription_created",
  // A future subscription starting, a trial turning active: the subscription's status changed.
  subscription_started: "subscription_changed",
  subscription_activated: "subscription_changed",
  subscription_activated_with_backdating: "subscription_changed",
  subscription_changed: "subscription_changed",
  subscription_changed_with_backdating: "subscription_changed",
  subscription_shipping_address_updated: "subscription_changed",
  subscription_renewed: "subscription_renewed",
  subscription_cancelled: "subscription_cancelled",
  subscription_canceled_with_backdating: "subscription_cancelled",
  subscription_cancellation_scheduled: "subscription_cancellation_scheduled",
  subscription_scheduled_cancellation_removed: "subscription_scheduled_cancellation_removed",
  subscription_reactivated: "subscription_reactivated",
  subscription_reactivated_with_backdating: "subscription_reactivated",
  invoice_generated: "invoice_generated",
  invoice_generated_with_backdating: "invoice_generated",
  invoice_updated: "invoice_updated",
  payment_succeeded: "invoice_paid",
  payment_failed: "payment_failed",
  payment_source_added: "payment_source_added",
  payment_source_updated: "payment_source_updated",
  payment_source_expired: "payment_source_updated",
  payment_source_deleted: "payment_source_deleted",
  payment_source_locally_deleted: "payment_source_deleted",
};

const normalized = (eventType: string): ProviderEventType =>
  (EVENT_TYPES as Partial<Record<string, ProviderEventType>>)[eventType] ?? "other";

/** An event's envelope; its content is read only for the types the portal acts on. */
const chargebeeEvent = z.object({
  id: z.string().min(1),
  occurred_at: z.number().int(),
  event_type: z.string().min(1),
  content: z.record(z.unknown()),
});
/** What the portal reads of a resource in an event's content; the rest of it is taken as Chargebee sent it. */
const owned = z.object({ id: z.string().min(1), customer_id: z.string().min(1) }).passthrough();
const resources = z
  .object({
    subscription: owned.extend({ status: z.string() }).optional(),
    invoice: owned.extend({ status: z.string(), sub_total: z.number() }).optional(),
    payment_source: owned.extend({ status: z.string(), reference_id: z.string() }).optional(),
    customer: z
      .object({ id: z.string().min(1) })
      .passthrough()
      .optional(),
  })
  .passthrough();

const malformed = (error: z.ZodError) => {
  const issue = error.issues[0];
  return refused(`Not a Chargebee event: ${issue.path.join(".")} ${issue.message}`, "malformed_event");
};

/** The resource an event is about, by its type: a subscription's events, an invoice's (and payments'), a card's. */
function resourceTypeOf(type: ProviderEventType): ProviderResourceType {
  if (type.startsWith("subscription_")) return "subscription";
  if (type.startsWith("invoice_") || type === "payment_failed") return "invoice";
  if (type.startsWith("payment_source_")) return "payment_source";
  return "other";
}

/**
 * A Chargebee event (a webhook's parsed body, or an entry of its events list) in the port's terms. One that is
 * not an event (no id, no type, a resource without its id or customer) is refused: code `malformed_event`.
 */
export function eventOf(body: unknown): ProviderEvent {
  const parsed = chargebeeEvent.safeParse(body);
  if (!parsed.success) throw malformed(parsed.error);
  const { id, occurred_at, event_type } = parsed.data;
  const type = normalized(event_type);
  // Only the customer's id is read of an event the portal has no use for.
  const read = resources.safeParse(type === "other" ? { customer: parsed.data.content.customer } : parsed.data.content);
  if (!read.success) throw malformed(read.error);
  const content = read.data;
  // Chargebee's content is taken as its resources' types once the fields the portal relies on are there.
  const subscription = content.subscription
    ? subscriptionOf(content.subscription as unknown as ChargebeeSubscription)
    : null;
  const invoice = content.invoice ? invoiceOf(content.invoice as unknown as ChargebeeInvoice) : null;
  const paymentSource = content.payment_source
    ? paymentSourceOf(content.payment_source as unknown as ChargebeePaymentSource)
    : null;
  const resourceType = resourceTypeOf(type);
  const resource =
    resourceType === "subscription"
      ? { id: subscription?.id, version: subscription?.resourceVersion }
      : resourceType === "invoice"
        ? { id: invoice?.id, version: invoice?.resourceVersion }
        : resourceType === "payment_source"
          ? // Chargebee versions a payment source as well; the portal keeps none of it.
            { id: paymentSource?.id, version: content.payment_source?.resource_version }
          : { id: undefined, version: undefined };
  return {
    id,
    occurredAt: new Date(occurred_at * 1000),
    type,
    providerType: event_type,
    resourceType,
    resourceId: resource.id ?? null,
    resourceVersion: typeof resource.version === "number" && resource.version > 0 ? resource.version : null,
    customerId:
      content.customer?.id ??
      content.subscription?.customer_id ??
      content.invoice?.customer_id ??
      content.payment_source?.customer_id ??
      null,
    subscription,
    invoice,
    paymentSource,
  };
}

/**
 * A webhook's body in the port's terms (see eventOf); a body that is not JSON is refused the same way.
 * The route stores the event by its id before answering, so a redelivery changes nothing.
 */
export function parseChargebeeWebhook(body: string): ProviderEvent {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw refused("Not a Chargebee event: the body is not JSON.", "malformed_event");
  }
  return eventOf(json);
}

/** The user name and password Chargebee's webhook settings send (HTTP basic auth). */
export interface WebhookCredentials {
  username: string;
  password: string;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Whether an Authorization header carries the configured webhook credentials. Both sides are compared as
 * SHA-256 digests with a constant-time comparison, so the time taken tells nothing of how much of a guess was
 * right, nor of the credentials' length.
 */
export function webhookAuthorized(authorization: string | null | undefined, expected: WebhookCredentials): boolean {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(authorization?.trim() ?? "");
  const given = match ? Buffer.from(match[1], "base64").toString("utf8") : "";
  const same = timingSafeEqual(digest(given), digest(`${expected.username}:${expected.password}`));
  return match !== null && expected.password !== "" && same;
}
