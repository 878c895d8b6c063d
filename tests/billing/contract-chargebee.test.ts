import { createChargebeeBilling } from "~/server/billing/chargebee/adapter.server";
import { db } from "~/server/platform/database/db.server";
import { FAKE_API_KEY, FAKE_GATEWAY_ACCOUNT_ID, FAKE_SITE, startChargebeeFake } from "../fakes/chargebee";
import { billingContract } from "./contract";

/** The Chargebee adapter through the real SDK against the wire-level fake; no request may be one Chargebee refuses. */
billingContract("chargebee adapter", async (now) => {
  const fake = await startChargebeeFake({ store: db, now });
  const billing = createChargebeeBilling({
    site: FAKE_SITE,
    apiKey: FAKE_API_KEY,
    gatewayAccountId: FAKE_GATEWAY_ACCOUNT_ID,
    endpoint: { protocol: "http", hostSuffix: "", port: fake.port },
  });
  return {
    billing,
    // A test site's time machine: Chargebee renews, retries and cancels as its clock passes.
    advanceClock: (days) => fake.advanceClock(days),
    loseNextAnswer: ({ method, path }) =>
      fake.answerNextWith(
        { status: 504, html: "<html><body>Gateway Timeout</body></html>" },
        { method, path, served: true },
      ),
    answerBank: (paymentIntentId, outcome) => fake.answerPaymentIntent(paymentIntentId, outcome),
    close: async () => {
      await fake.close();
      expect(fake.refusals).toEqual([]);
    },
  };
});
