import { addPeriod } from "~/domain/pricing";
import { gatewayCustomerFor } from "~/server/providers/card-vault.server";
import { env } from "~/server/env.server";
import { wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import { billingCustomers, billingPaymentSources, billingSubscriptions } from "~db/schema";
import { catalogue } from "../catalogue.server";

const DAY = 24 * 60 * 60 * 1000;

/** Ids the portal's demo seed already uses for the demo customer's user and license. */
export const DEMO_BILLING = {
  customerId: "cust_demo_customer",
  subscriptionId: "sub_demo_core_monthly",
  paymentSourceId: "src_demo_visa",
} as const;

/**
 * The demo customer's billing data in the embedded engine: a Visa on file, a billing address, and the
 * core-monthly subscription for 10 users behind their license GK-NWC-2026-0001, started 120 days ago
 * with the license. The distributor gets nothing: their billing customer is created on first need.
 * With a real billing provider there is nothing to seed here.
 */
export function seedBillingDemo(store: EmbeddedStore, now = new Date(), provider = env.BILLING_PROVIDER): void {
  if (provider !== "local") return;
  const { customerId, subscriptionId, paymentSourceId } = DEMO_BILLING;
  const today = wholeSeconds(now);
  store
    .insert(billingCustomers)
    .values({
      id: customerId,
      firstName: "Dana",
      lastName: "Whitfield",
      email: "customer@example.com",
      phone: "+1 415 555 0134",
      company: "Northwind Clinics",
      billingAddress: {
        firstName: "Dana",
        lastName: "Whitfield",
        line1: "450 Mission Street",
        line2: "Suite 300",
        city: "San Francisco",
        state: "California",
        stateCode: "CA",
        zip: "94105",
        country: "US",
      },
      primaryPaymentSourceId: paymentSourceId,
      createdAt: new Date(today.getTime() - 120 * DAY),
    })
    .run();
  store
    .insert(billingPaymentSources)
    .values({
      id: paymentSourceId,
      customerId,
      status: "valid",
      referenceId: `${gatewayCustomerFor(customerId)}/card_demo_visa`,
      brand: "visa",
      last4: "4242",
      firstName: "Dana",
      lastName: "Whitfield",
      expiryMonth: 12,
      expiryYear: today.getUTCFullYear() + 3,
      createdAt: new Date(today.getTime() - 120 * DAY),
    })
    .run();

  const plan = catalogue.plan("core-monthly");
  if (!plan) throw new Error("The price list has no core-monthly plan.");
  // Its first term; the engine renews it up to the current term when it is first read.
  const started = new Date(today.getTime() - 120 * DAY);
  const termEnd = addPeriod(started, plan.period);
  store
    .insert(billingSubscriptions)
    .values({
      id: subscriptionId,
      customerId,
      planId: plan.id,
      planQuantity: 10,
      planUnitPrice: plan.price,
      addons: [],
      status: "active",
      currentTermStart: started,
      currentTermEnd: termEnd,
      nextBillingAt: termEnd,
      paymentSourceId,
      autoCollection: true,
      licenseAssignment: "Northwind Clinics",
      createdAt: started,
    })
    .run();
}
