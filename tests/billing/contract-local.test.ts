import { createLocalBilling } from "~/server/billing/local/engine.server";
import { injectBillingFault } from "~/server/billing/local/faults.server";
import { db } from "~/server/platform/database/db.server";
import { answerSetup } from "~/server/providers/card-vault.server";
import { billingContract } from "./contract";

billingContract("embedded engine", async (now) => {
  const billing = createLocalBilling({ store: db, now });
  return {
    billing,
    advanceClock: (days) => billing.advanceClock(days),
    loseNextAnswer: ({ call }) => injectBillingFault(db, call, { mode: "lose", times: "once" }),
    // What the embedded gateway's bank page does with the cardholder's answer.
    answerBank: (paymentIntentId, outcome) => answerSetup(db, paymentIntentId, outcome),
  };
});
