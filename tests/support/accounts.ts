import { randomUUID } from "node:crypto";
import { authenticatedTokenOf } from "./card-tokens";
import { and, count, eq } from "drizzle-orm";
import { ensureBillingCustomer } from "~/server/account-billing/billing-details.server";
import { getBilling } from "~/server/billing/index.server";
import { getCards } from "~/server/cards/index.server";
import { db } from "~/server/platform/database/db.server";
import { enqueueJob } from "~/server/platform/jobs/runner.server";
import { newSubscriptionOrder, type OrderInput } from "~/server/orders/new-subscription-job.server";
import { orderDigest } from "~/server/orders/placing.server";
import { billingEvents, billingSubscriptions, licenses, organizations } from "~/server/platform/database/tables.server";
import { runJobs } from "./jobs";
import { createAccount, memberByEmail } from "./members";

export const VISA = "4242 4242 4242 4242";
/** Stripe's test card that saves, and then every charge to it is declined. */
export const DECLINING = "4000 0000 0000 0341";

/**
 * A new customer: an organization whose Owner signs in with the demo password, with a billing customer at the
 * embedded engine. What a page's `requireMember` gives (the person, the organization, the role), with the
 * organization's id and billing customer at hand as `id` and `billingCustomerId`.
 */
export async function newCustomer(label: string) {
  const suffix = randomUUID().slice(0, 8);
  const email = `${label}-${suffix}@example.com`;
  // The demo password's hash, so that route tests can sign in as this account.
  const { organizationId } = await createAccount(
    email,
    (await memberByEmail("customer@example.com")).user.passwordHash,
  );
  await db
    .update(organizations)
    .set({ name: `${label} Co`, billingCustomerId: `cust_${label}_${suffix}` })
    .where(eq(organizations.id, organizationId));
  const member = await memberByEmail(email);
  await ensureBillingCustomer(member);
  await getBilling().updateBillingInfo(member.organization.billingCustomerId!, {
    billingAddress: {
      firstName: "Robin",
      lastName: "Renewal",
      line1: "1 Main Street",
      city: "Springfield",
      state: "Illinois",
      zip: "62701",
      country: "US",
    },
    vatNumber: null,
    vatNumberStatus: "unchecked",
  });
  return {
    ...member,
    id: organizationId,
    company: member.organization.name,
    billingCustomerId: member.organization.billingCustomerId!,
  };
}

export type TestCustomer = Awaited<ReturnType<typeof newCustomer>>;

/** Puts a card on the account (the embedded tokenizer's test numbers), the primary one; its payment source. */
export async function addCard(user: TestCustomer, number = VISA) {
  const form = new FormData();
  form.set("card_number", number);
  form.set("card_expiry", "12 / 34");
  form.set("card_cvc", "123");
  const key = `${user.id}:${number}:${randomUUID()}`;
  // A card whose bank asks when it is saved (3-D Secure) is saved once the cardholder completes the bank's page.
  const tmpToken = await authenticatedTokenOf(
    getCards(),
    form,
    { firstName: "Robin", lastName: "Renewal" },
    `${key}:t`,
  );
  return getBilling().createPaymentSourceFromTempToken(
    { customerId: user.billingCustomerId!, tmpToken, setAsPrimary: true },
    `${key}:s`,
  );
}

/**
 * A recurring license bought the way the order job buys it (the new-subscription job, run to its end): a core plan
 * for `users` users on the account's primary card. The license, and the subscription's id.
 */
export async function buyLicense(
  user: TestCustomer,
  {
    users: planQuantity = 3,
    cycle = "monthly",
    cloud = false,
  }: { users?: number; cycle?: "monthly" | "yearly"; cloud?: boolean } = {},
) {
  const [card] = await getBilling().listPaymentSources(user.billingCustomerId!);
  const organization = `${user.company} ${randomUUID().slice(0, 4)}`;
  const request: OrderInput["request"] = {
    customerId: user.billingCustomerId!,
    planId: `core-${cycle}`,
    planQuantity,
    addons: cloud ? [{ id: `gatekeeper-cloud-${cycle}`, quantity: 1 }] : [],
    oneTimeAddons: [],
    hardware: [],
    couponIds: [],
    paymentSourceId: card.id,
    licenseAssignment: organization,
  };
  const estimate = await getBilling().estimateNewSubscription({ ...request, startDate: new Date() });
  const draftId = randomUUID();
  const digest = orderDigest(request, estimate);
  await enqueueJob(newSubscriptionOrder, {
    ownerId: user.id,
    idempotencyKey: `new-subscription:${draftId}:${digest}`,
    input: {
      draftId,
      digest,
      request,
      organization,
      licensee: null,
      users: planQuantity,
      tier: "core",
      hosting: cloud ? "cloud" : "on-premise",
      offsiteAccess: false,
      origin: null,
    },
  });
  await runJobs();
  const [license] = await db
    .select()
    .from(licenses)
    .where(and(eq(licenses.ownerId, user.id), eq(licenses.name, organization)));
  if (!license?.subscriptionId) throw new Error("The order made no license.");
  return { license, subscriptionId: license.subscriptionId };
}

/** The license as it is now. */
export async function licenseNow(licenseId: string) {
  const [license] = await db.select().from(licenses).where(eq(licenses.id, licenseId));
  if (!license) throw new Error(`No license ${licenseId}.`);
  return license;
}

/** How many subscriptions the billing customer has at the embedded engine: one per charge of a new order. */
export async function subscriptionsOf(billingCustomerId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.customerId, billingCustomerId));
  return row?.n ?? 0;
}

/** Times the engine charged the invoice successfully. */
export async function paymentsOf(invoiceId: string) {
  const [{ n }] = await db
    .select({ n: count() })
    .from(billingEvents)
    .where(and(eq(billingEvents.resourceId, invoiceId), eq(billingEvents.type, "invoice_paid")));
  return n;
}
