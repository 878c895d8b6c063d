import {
  chargebeeWebhookCredentials,
  parseChargebeeWebhook,
  portalNow,
  ProviderError,
  webhookAuthorized,
  type ProviderEvent,
} from "~/server/billing/index.server";
import { storeProviderEvents } from "./event-feed.server";
import { errorFields, logger } from "~/server/platform/log/log.server";

/**
 * How far ahead of the billing provider's clock as the portal reads it (portalNow) a resource's version may be:
 * Chargebee's resource_version is the time of the change, in milliseconds, and a copy is replaced only by a newer
 * version, so one far in the future would keep every genuine event after it out. A few minutes of clock skew pass.
 */
export const MAX_VERSION_AHEAD_MS = 5 * 60 * 1000;

const versionsOf = (event: ProviderEvent) =>
  [event.resourceVersion, event.subscription?.resourceVersion, event.invoice?.resourceVersion].filter(
    (version): version is number => typeof version === "number",
  );

/**
 * Chargebee's webhooks (`POST /webhooks/chargebee`, decision 185): the basic auth of Chargebee's webhook settings
 * (checked in constant time), a resource version no further ahead than clock skew (decision 196), then the event
 * stored by its id before the answer is 200. A storage failure answers
 * 503, so that Chargebee posts it again; a body that is no event answers 400 (Chargebee's retries would not mend
 * it). With the embedded engine there is no such address (404): its events reach the portal in the process.
 */
export async function receiveChargebeeWebhook(request: Request): Promise<Response> {
  const credentials = chargebeeWebhookCredentials();
  if (!credentials) return new Response("Not Found", { status: 404 });
  if (!webhookAuthorized(request.headers.get("Authorization"), credentials)) {
    return new Response("Unauthorized", {
      status: 401,
      headers: { "WWW-Authenticate": 'Basic realm="GateKeeper Portal webhooks", charset="UTF-8"' },
    });
  }
  let event: ProviderEvent;
  try {
    event = parseChargebeeWebhook(await request.text());
  } catch (error) {
    if (error instanceof ProviderError) return new Response(error.message, { status: 400 });
    throw error;
  }
  const latest = (await portalNow()).getTime() + MAX_VERSION_AHEAD_MS;
  if (versionsOf(event).some((version) => version > latest)) {
    logger.warn(
      { event: "webhook-version-in-the-future", eventId: event.id, resourceVersion: Math.max(...versionsOf(event)) },
      "A webhook's resource_version is further ahead than clock skew explains: refused.",
    );
    return new Response("Not a Chargebee event: its resource_version is in the future.", { status: 400 });
  }
  try {
    await storeProviderEvents([event], "webhook");
  } catch (error) {
    logger.error({ event: "webhook-not-stored", eventId: event.id, ...errorFields(error) });
    return new Response("The event could not be stored; please send it again.", { status: 503 });
  }
  return new Response("OK", { status: 200 });
}
