import {
  chargebeeWebhookCredentials,
  parseChargebeeWebhook,
  ProviderError,
  webhookAuthorized,
  type ProviderEvent,
} from "~/server/billing/index.server";
import { storeProviderEvents } from "./event-feed.server";
import { errorFields, logger } from "~/server/platform/log.server";

/**
 * Chargebee's webhooks (`POST /webhooks/chargebee`, decision 185): the basic auth of Chargebee's webhook settings
 * (checked in constant time), then the event stored by its id before the answer is 200. A storage failure answers
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
  try {
    await storeProviderEvents([event], "webhook");
  } catch (error) {
    logger.error({ event: "webhook-not-stored", eventId: event.id, ...errorFields(error) });
    return new Response("The event could not be stored; please send it again.", { status: 503 });
  }
  return new Response("OK", { status: 200 });
}
