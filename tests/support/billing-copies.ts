import { randomUUID } from "node:crypto";
import type { Invoice, Subscription } from "~/server/billing/port.server";

const DAY = 24 * 60 * 60 * 1000;

/** A subscription as the billing port gives it: a month's core plan for 10 users, running, paid up. */
export function subscriptionFixture(overrides: Partial<Subscription> & Pick<Subscription, "id">): Subscription {
  const start = overrides.currentTermStart ?? new Date("2026-11-01T00:00:00Z");
  const end = overrides.currentTermEnd ?? new Date(start.getTime() + 30 * DAY);
  return {
    customerId: "cust_fixture",
    planId: "core-monthly",
    planQuantity: 10,
    planUnitPrice: 400,
    status: "active",
    addons: [],
    currentTermStart: start,
    currentTermEnd: end,
    nextBillingAt: end,
    paymentSourceId: null,
    autoCollection: true,
    shippingAddress: null,
    licenseAssignment: null,
    cancelledAt: null,
    totalDues: 0,
    dueSince: null,
    resourceVersion: start.getTime(),
    ...overrides,
  };
}

/** An invoice as the billing port gives it: a paid renewal of 40 dollars. */
export function invoiceFixture(overrides: Partial<Invoice> & Pick<Invoice, "id">): Invoice {
  const date = overrides.date ?? new Date("2026-11-01T00:00:00Z");
  return {
    customerId: "cust_fixture",
    subscriptionId: null,
    status: "paid",
    lineItems: [],
    discounts: [],
    subTotal: 4000,
    total: 4000,
    creditsApplied: 0,
    amountPaid: 4000,
    amountDue: 0,
    date,
    number: overrides.id,
    purpose: "renewal",
    paidAt: date,
    nextRetryAt: null,
    paymentFailure: null,
    resourceVersion: date.getTime(),
    billedTo: null,
    poNumber: null,
    ...overrides,
  };
}

/** `n` paid invoice copies of the organization, a day apart, as rows of `invoices` on either engine. */
export function invoiceCopyRows(ownerId: string, n: number) {
  return Array.from({ length: n }, (_, i) => {
    const id = `inv_${randomUUID()}`;
    return {
      id,
      ownerId,
      customerId: `cust_${ownerId}`,
      number: id,
      date: new Date(Date.UTC(2026, 0, 1 + i)),
      purpose: "renewal" as const,
      status: "paid" as const,
      total: 400,
      amountPaid: 400,
      amountDue: 0,
      resourceVersion: 1,
    };
  });
}
