import { db } from "~/server/db.server";
import { env } from "~/server/env.server";
import { createChargebeeBilling } from "./chargebee/adapter.server";
import { withInputChecks } from "./input-checks.server";
import { createLocalBilling } from "./local/engine.server";
import { clearBillingFaults, injectBillingFault, type Fault } from "./local/faults.server";
import type { BillingCall, BillingProvider } from "./port.server";

export * from "~/server/providers/errors.server";
export * from "./errors.server";
export * from "./port.server";
export type { Fault } from "./local/faults.server";

let provider: BillingProvider | undefined;

/** The configured billing provider (BILLING_PROVIDER): the embedded engine unless Chargebee is chosen. */
export function getBilling(): BillingProvider {
  provider ??= withInputChecks(
    env.BILLING_PROVIDER === "chargebee"
      ? createChargebeeBilling(chargebeeOptions())
      : createLocalBilling({ store: db }),
  );
  return provider;
}

function chargebeeOptions() {
  const { CHARGEBEE_SITE: site, CHARGEBEE_API_KEY: apiKey, CHARGEBEE_GATEWAY_ACCOUNT_ID: gatewayAccountId } = env;
  // env.server refuses to start without them when BILLING_PROVIDER=chargebee; this only satisfies the types.
  if (!site || !apiKey || !gatewayAccountId) throw new Error("Chargebee is not configured.");
  return { site, apiKey, gatewayAccountId };
}

/** Fault injection into the embedded engine, for tests and demos (it has no effect on Chargebee). */
export const billingFaults = {
  inject: (call: BillingCall, fault: Fault) => injectBillingFault(db, call, fault),
  clear: () => clearBillingFaults(db),
};
