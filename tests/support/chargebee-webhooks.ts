import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { action as webhookAction } from "~/routes/webhooks.chargebee";
import { db } from "~/server/platform/database/db.server";
import { billingClock } from "~/server/platform/database/tables.server";
import { startChargebeeFake, type ChargebeeFake } from "../fakes/chargebee";

/** The webhook credentials the tests configure on both sides (the portal's, mocked, and the fake's). */
export const WEBHOOK_CREDENTIALS = { username: "chargebee-webhooks", password: "a-long-webhook-password-for-tests" };

/**
 * The Chargebee fake on the engine's clock, posting its webhooks to the portal's webhook route, served over HTTP as
 * the built server serves it. The file mocks the billing port to hand out the fake and WEBHOOK_CREDENTIALS.
 */
export async function chargebeeWithWebhooks(): Promise<{ fake: ChargebeeFake; close(): Promise<void> }> {
  await db.delete(billingClock);
  const fake = await startChargebeeFake({ store: db, now: () => new Date() });
  const portal = createServer((incoming, outgoing) => {
    let body = "";
    incoming.setEncoding("utf8");
    incoming.on("data", (chunk: string) => (body += chunk));
    incoming.on("end", () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers))
        if (typeof value === "string") headers.set(name, value);
      const request = new Request(`http://portal.test${incoming.url}`, { method: "POST", headers, body });
      void Promise.resolve(webhookAction({ request, params: {}, context: {} })).then(async (response) => {
        outgoing.writeHead(response.status).end(await response.text());
      });
    });
  });
  await new Promise<void>((resolve) => portal.listen(0, "127.0.0.1", resolve));
  fake.webhooks.configure({
    url: `http://127.0.0.1:${(portal.address() as AddressInfo).port}/webhooks/chargebee`,
    ...WEBHOOK_CREDENTIALS,
  });
  return {
    fake,
    async close() {
      await fake.close();
      await new Promise((resolve) => portal.close(resolve));
      await db.delete(billingClock);
    },
  };
}
