import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { lockFor } from "~/server/platform/database/dialect.server";
import type { PortalDatabase } from "~/server/platform/database/portal-database.server";
import * as schema from "~/server/platform/database/tables.server";
import { RESELLER_DEMO_BILLING, RESELLER_DEMO_SUBSCRIPTIONS, seedBillingDemo } from "./billing/local/seed.server";
import { estimateOn } from "./billing/local/engine.server";
import { DEMO_CLOUD_HUB_USAGE } from "~/server/cloud-hubs/index.server";
import { cloudHubUrl, seedHubDemo } from "./hubs/simulator/seed.server";
import { licenseEndOf } from "~/domain/renewals";
import { invoiceCopyRow, subscriptionCopyRow, licenseRow } from "~/server/subscriptions/index.server";
import { hashPassword } from "~/server/platform/passwords.server";
import { sealSecret } from "~/server/platform/wizards/sealed.server";
import type { PortalTransaction } from "~/server/platform/database/portal-database.server";
import { estimateView } from "~/domain/estimate";
import { subscriptionDraftSchema, type SubscriptionDraft } from "~/domain/new-subscription";
import { acceptanceDetail } from "~/domain/quotes";
import type { NewSubscriptionEstimateRequest } from "~/server/billing/index.server";
import { estimateDraft } from "~/server/orders/index.server";
import { recordQuoteEvent, writeQuote } from "~/server/quotes/index.server";

/** Every demo account signs in with this password; the README lists the accounts. */
export const DEMO_PASSWORD = "GateKeeper-demo-1";
export const DEMO_ACCOUNTS = [
  "customer@example.com",
  "technical@example.com",
  "distributor@example.com",
  "admin@example.com",
] as const;

const DAY = 24 * 60 * 60 * 1000;

/** The demo customer's cloud Hub, listed on /hubs and known to the Hub service at its address. */
const CLOUD_HUB = {
  subdomain: "northwind-west",
  administrator: {
    userName: "dana.whitfield",
    firstName: "Dana",
    lastName: "Whitfield",
    email: "customer@example.com",
    phoneNumber: "+1 415 555 0134",
    password: DEMO_PASSWORD,
  },
};

/** The cloud Hub the demo distributor deployed for its end customer Harbor Dental Group. */
const RESELLER_CLOUD_HUB = {
  subdomain: "harbor-dental",
  administrator: {
    userName: "priya.shah",
    firstName: "Priya",
    lastName: "Shah",
    email: "it@harbordental.example.com",
    phoneNumber: "+1 206 555 0140",
    password: DEMO_PASSWORD,
  },
};

/**
 * The demo distributor's end customers (each with one license, bought at reseller prices: the subscriptions of
 * RESELLER_DEMO_SUBSCRIPTIONS, by the license's name): their records as the distributor keeps them.
 */
const END_CUSTOMERS = [
  {
    name: "Harbor Dental Group",
    country: "US",
    address: { line1: "88 Harbor Boulevard", city: "Seattle", state: "WA", zip: "98101" },
    contactName: "Priya Shah",
    contactEmail: "it@harbordental.example.com",
    license: { externalLicenseId: "GK-SLR-2026-0101", planType: "advanced", nodes: 20, hasCloudSupport: true },
  },
  {
    name: "Meridian Law LLP",
    country: "GB",
    address: { line1: "5 Chancery Lane", city: "London", zip: "WC2A 1LF" },
    contactName: "Tom Ellis",
    contactEmail: "tom.ellis@meridianlaw.example.com",
    license: { externalLicenseId: "GK-SLR-2026-0102", planType: "core", nodes: 8, hasCloudSupport: false },
  },
  {
    name: "Alpine Logistics AG",
    country: "CH",
    address: { line1: "Bahnhofstrasse 10", city: "Zurich", zip: "8001" },
    contactName: "Lea Meier",
    contactEmail: "lea.meier@alpine-logistics.example.com",
    license: { externalLicenseId: "GK-SLR-2025-0103", planType: "ultimate", nodes: 40, hasCloudSupport: false },
  },
] as const;

/**
 * The demo's quotes, made over the last weeks: Dana's for Northwind Clinics' own growth (one sent to its purchasing
 * team, one past its validity), and Ravi's for SecureLine's end customers (one sent that Meridian's people may accept
 * in the portal, one accepted with a PO number and ready to order, one withdrawn). Priced as the plan step prices.
 */
const DEMO_QUOTES: {
  by: "dana" | "ravi";
  /** The end customer it is for (by name); none for the organization's own. */
  for?: (typeof END_CUSTOMERS)[number]["name"];
  order: Partial<SubscriptionDraft>;
  madeDaysAgo: number;
  validDays: number;
  customerMayAccept?: boolean;
  sentTo?: string;
  accepted?: { name: string; poNumber: string };
  withdrawn?: boolean;
}[] = [
  {
    by: "dana",
    order: { tier: "advanced", cycle: "yearly", users: 40, hosting: "cloud", support: { "virtual-installation": 1 } },
    madeDaysAgo: 6,
    validDays: 30,
    sentTo: "purchasing@northwindclinics.example.com",
  },
  {
    by: "dana",
    order: { tier: "core", cycle: "monthly", users: 12, hosting: "on-premise" },
    madeDaysAgo: 75,
    validDays: 30,
  },
  {
    by: "ravi",
    for: "Meridian Law LLP",
    order: { tier: "advanced", cycle: "yearly", users: 15, hosting: "cloud", hardware: { "usb-sensor": 15 } },
    madeDaysAgo: 3,
    validDays: 30,
    customerMayAccept: true,
    sentTo: "tom.ellis@meridianlaw.example.com",
  },
  {
    by: "ravi",
    for: "Alpine Logistics AG",
    order: { tier: "ultimate", cycle: "yearly", users: 20, hosting: "on-premise" },
    madeDaysAgo: 12,
    validDays: 45,
    sentTo: "lea.meier@alpine-logistics.example.com",
    accepted: { name: "Lea Meier", poNumber: "PO-ALP-2026-114" },
  },
  {
    by: "ravi",
    for: "Harbor Dental Group",
    order: { tier: "core", cycle: "monthly", users: 25, hosting: "cloud" },
    madeDaysAgo: 20,
    validDays: 30,
    withdrawn: true,
  },
];

/** Who makes a demo quote, and the organization that makes it. */
interface DemoQuoteMaker {
  person: { id: string; firstName: string; lastName: string };
  organization: { id: string; name: string; customerType: "customer" | "distributor" };
}

/**
 * Writes DEMO_QUOTES in the seed's transaction, priced by the embedded engine on it, with the history each went
 * through (sent, accepted, withdrawn) a day apart after it was made.
 */
async function seedQuotes(
  tx: PortalTransaction,
  now: Date,
  makers: Record<"dana" | "ravi", DemoQuoteMaker>,
  endCustomers: { id: string; name: string }[],
) {
  const engine = { estimateNewSubscription: (request: NewSubscriptionEstimateRequest) => estimateOn(tx, request) };
  // Oldest first, so that the numbers follow the dates.
  for (const spec of [...DEMO_QUOTES].sort((a, b) => b.madeDaysAgo - a.madeDaysAgo)) {
    const { person, organization } = makers[spec.by];
    const customer = spec.for ? endCustomers.find((candidate) => candidate.name === spec.for) : undefined;
    const draft = subscriptionDraftSchema.parse(spec.order);
    const estimate = estimateView(await estimateDraft(organization, draft, { withCoupon: false }, engine));
    const madeBy = { userId: person.id, name: `${person.firstName} ${person.lastName}` };
    const quotedAt = new Date(now.getTime() - spec.madeDaysAgo * DAY);
    const quote = await writeQuote(tx, {
      ownerId: organization.id,
      customerId: customer?.id ?? null,
      organizationName: customer?.name ?? organization.name,
      madeBy,
      draft,
      estimate,
      customerMayAccept: spec.customerMayAccept ?? false,
      validDays: spec.validDays,
      quotedAt,
    });
    const dayAfter = (days: number) => new Date(quotedAt.getTime() + days * DAY);
    const change: Partial<typeof schema.quotes.$inferInsert> = {};
    if (spec.sentTo) {
      Object.assign(change, { sentTo: spec.sentTo, sentAt: dayAfter(1) });
      await recordQuoteEvent(tx, quote.id, "sent", madeBy.name, dayAfter(1), spec.sentTo);
    }
    if (spec.accepted) {
      const { name, poNumber } = spec.accepted;
      Object.assign(change, { status: "accepted", acceptedByName: name, poNumber, acceptedAt: dayAfter(2) });
      await recordQuoteEvent(
        tx,
        quote.id,
        "accepted",
        name,
        dayAfter(2),
        acceptanceDetail({ poNumber, address: null }),
      );
    }
    if (spec.withdrawn) {
      change.status = "withdrawn";
      await recordQuoteEvent(tx, quote.id, "withdrawn", madeBy.name, dayAfter(1));
    }
    if (Object.keys(change).length > 0)
      await tx.update(schema.quotes).set(change).where(eq(schema.quotes.id, quote.id));
  }
}

/**
 * Demo organizations, their members, licenses and Hub installations: Northwind Clinics (a customer: Dana, its
 * Owner, and Jordan, its Technical contact), SecureLine Resellers (a distributor, with three end customers whose
 * licenses it pays for, one with a cloud Hub, one renewing within 30 days), the quotes of both (DEMO_QUOTES) and
 * GateKeeper (the administrator's).
 * Created only on an empty database so that a restart never duplicates or overwrites what a user changed
 * (db.server runs it when SEED_DEMO is set); true when it seeded. The embedded billing engine and Hub service get
 * the same subscriptions, cards and cloud Hubs, so that what the portal shows is what its providers know. It is all
 * one transaction: a process that dies mid-seed leaves an empty database, seeded whole by the next start.
 */
export async function seedDemo(db: PortalDatabase, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Whoever else seeds this database (another instance starting) waits here, then finds it seeded.
    await lockFor(tx, "demo-seed");
    const [{ users }] = await tx.select({ users: count() }).from(schema.users);
    const [{ organizations }] = await tx.select({ organizations: count() }).from(schema.organizations);
    if (users + organizations > 0) return false;

    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const verified = { emailVerifiedAt: now, passwordHash };
    const people = {
      dana: { ...verified, id: randomUUID(), email: DEMO_ACCOUNTS[0], firstName: "Dana", lastName: "Whitfield" },
      jordan: { ...verified, id: randomUUID(), email: DEMO_ACCOUNTS[1], firstName: "Jordan", lastName: "Reyes" },
      ravi: { ...verified, id: randomUUID(), email: DEMO_ACCOUNTS[2], firstName: "Ravi", lastName: "Patel" },
      alex: { ...verified, id: randomUUID(), email: DEMO_ACCOUNTS[3], firstName: "Alex", lastName: "Morgan" },
    };
    await tx.insert(schema.users).values([
      { ...people.dana, company: "Northwind Clinics", phone: "+1 415 555 0134" },
      { ...people.jordan, company: "Northwind Clinics", phone: "+1 415 555 0177" },
      { ...people.ravi, company: "SecureLine Resellers", phone: "+44 20 7946 0321" },
      { ...people.alex, company: "GateKeeper", phone: "+1 206 555 0188", isGKAdmin: true },
    ]);
    // Each organization has an id of its own, never its first member's: code that took one for the other would
    // find nothing here.
    const northwind = { id: randomUUID(), name: "Northwind Clinics", country: "US" };
    const secureLine = { id: randomUUID(), name: "SecureLine Resellers", country: "GB" };
    const gateKeeper = { id: randomUUID(), name: "GateKeeper", country: "US" };
    const customerId = northwind.id;
    await tx.insert(schema.organizations).values([
      { ...northwind, customerType: "customer", billingCustomerId: "cust_demo_customer" },
      { ...secureLine, customerType: "distributor", billingCustomerId: RESELLER_DEMO_BILLING.customerId },
      { ...gateKeeper, customerType: "customer" },
    ]);
    await tx.insert(schema.memberships).values([
      { organizationId: northwind.id, userId: people.dana.id, role: "owner" },
      { organizationId: northwind.id, userId: people.jordan.id, role: "technical_contact" },
      { organizationId: secureLine.id, userId: people.ravi.id, role: "owner" },
      { organizationId: gateKeeper.id, userId: people.alex.id, role: "owner" },
    ]);

    const endCustomers = END_CUSTOMERS.map(({ license: _license, ...record }) => ({
      ...record,
      id: randomUUID(),
      customerType: "customer" as const,
      managedBy: secureLine.id,
    }));
    await tx.insert(schema.organizations).values(endCustomers);

    // The embedded engine's subscriptions behind the recurring licenses (none with a real provider).
    const billing = await seedBillingDemo(tx, now);
    const subscriptionOf = (id: string) => billing?.subscriptions.find((subscription) => subscription.id === id);
    /** A recurring license; with its subscription at the engine, valid to what that subscription gives it. */
    const license = (
      externalLicenseId: string,
      terms: { name: string; nodes: number; planType: "core" | "advanced" | "ultimate"; hasCloudSupport: boolean },
      validFrom: Date,
      validTo: Date,
      extra: { isUsed?: boolean; subscriptionId: string; ownerId?: string; licenseeId?: string },
    ) => {
      const subscription = subscriptionOf(extra.subscriptionId);
      return licenseRow(
        extra.ownerId ?? customerId,
        {
          externalLicenseId,
          type: "recurring",
          validFrom,
          validTo: (subscription && licenseEndOf(subscription)) ?? validTo,
          ...terms,
        },
        {
          isUsed: extra.isUsed,
          subscriptionId: subscription?.id ?? null,
          termsVersion: subscription?.resourceVersion ?? 0,
          licenseeId: extra.licenseeId ?? null,
        },
      );
    };

    const onPremise = license(
      "GK-NWC-2026-0001",
      { name: "Northwind Clinics", nodes: 10, planType: "core", hasCloudSupport: false },
      new Date(now.getTime() - 120 * DAY),
      new Date(now.getTime() + 245 * DAY),
      { isUsed: true, subscriptionId: "sub_demo_core_monthly" },
    );
    const cloudReady = license(
      "GK-NWC-2026-0002",
      { name: "Northwind Clinics East", nodes: 25, planType: "advanced", hasCloudSupport: true },
      new Date(now.getTime() - 10 * DAY),
      new Date(now.getTime() + 355 * DAY),
      { subscriptionId: "sub_demo_advanced_yearly" },
    );
    const cloudInUse = license(
      "GK-NWC-2025-0007",
      { name: "Northwind Clinics West", nodes: 15, planType: "ultimate", hasCloudSupport: true },
      new Date(now.getTime() - 200 * DAY),
      new Date(now.getTime() + 165 * DAY),
      { isUsed: true, subscriptionId: "sub_demo_ultimate_yearly" },
    );
    const expired = license(
      "GK-NWC-2024-0003",
      { name: "Northwind Clinics", nodes: 5, planType: "core", hasCloudSupport: false },
      new Date(now.getTime() - 430 * DAY),
      new Date(now.getTime() - 65 * DAY),
      { isUsed: true, subscriptionId: "sub_demo_core_yearly" },
    );
    // The distributor's end customers' licenses, bought for them at reseller prices: the distributor's to pay for.
    const resellerLicenses = END_CUSTOMERS.map((customer, index) => {
      const spec = RESELLER_DEMO_SUBSCRIPTIONS[index];
      const started = new Date(now.getTime() - spec.startedDaysAgo * DAY);
      const { externalLicenseId, ...terms } = customer.license;
      return license(
        externalLicenseId,
        { name: customer.name, ...terms },
        started,
        new Date(started.getTime() + 365 * DAY),
        {
          subscriptionId: spec.id,
          ownerId: secureLine.id,
          licenseeId: endCustomers[index].id,
          isUsed: customer.license.hasCloudSupport,
        },
      );
    });
    await tx.insert(schema.licenses).values([onPremise, cloudReady, cloudInUse, expired, ...resellerLicenses]);
    // The portal's copies of what the engine holds, as its events and reconciliation would have made them.
    if (billing) {
      const ownerOf = (billingCustomerId: string) =>
        billingCustomerId === RESELLER_DEMO_BILLING.customerId ? secureLine.id : customerId;
      await tx.insert(schema.subscriptions).values(
        billing.subscriptions.map((subscription) => ({
          id: subscription.id,
          ...subscriptionCopyRow(ownerOf(subscription.customerId), subscription),
        })),
      );
      await tx.insert(schema.invoices).values(
        billing.invoices.map((invoice) => ({
          id: invoice.id,
          ...invoiceCopyRow(ownerOf(invoice.customerId), invoice),
        })),
      );
    }

    // The quotes are priced by the embedded engine: a portal on a real provider starts without them.
    if (billing)
      await seedQuotes(
        tx,
        now,
        {
          dana: { person: people.dana, organization: { ...northwind, customerType: "customer" } },
          ravi: { person: people.ravi, organization: { ...secureLine, customerType: "distributor" } },
        },
        endCustomers,
      );

    const [harborLicense] = resellerLicenses;
    const hubSessions = await seedHubDemo(tx, [
      {
        ...CLOUD_HUB,
        customerId,
        license: {
          licenseId: cloudInUse.externalLicenseId,
          licenseCode: cloudInUse.licenseCode ?? "",
          name: cloudInUse.name,
          nodes: cloudInUse.nodes,
          planType: cloudInUse.planType,
          validFrom: cloudInUse.validFrom,
          validTo: cloudInUse.validTo,
        },
        createdAt: new Date(now.getTime() - 200 * DAY),
      },
      {
        ...RESELLER_CLOUD_HUB,
        customerId: secureLine.id,
        license: {
          licenseId: harborLicense.externalLicenseId,
          licenseCode: harborLicense.licenseCode ?? "",
          name: harborLicense.name,
          nodes: harborLicense.nodes,
          planType: harborLicense.planType,
          validFrom: harborLicense.validFrom,
          validTo: harborLicense.validTo,
        },
        createdAt: new Date(now.getTime() - 55 * DAY),
      },
    ]);
    const cloudHubSession = hubSessions[CLOUD_HUB.subdomain];
    const resellerHubSession = hubSessions[RESELLER_CLOUD_HUB.subdomain];

    const cloudHubId = randomUUID();
    const localHubId = randomUUID();
    await tx.insert(schema.hubInstallations).values([
      {
        id: cloudHubId,
        ownerId: customerId,
        type: "cloud",
        url: cloudHubUrl(CLOUD_HUB.subdomain),
        lastSeen: new Date(now.getTime() - 2 * 60 * 60 * 1000),
        ...DEMO_CLOUD_HUB_USAGE,
        // Its administrator's session, as a deployment keeps it: a renewed license is uploaded with it.
        adminToken: cloudHubSession ? sealSecret(cloudHubSession) : null,
      },
      {
        id: localHubId,
        ownerId: customerId,
        type: "local",
        ip: "10.20.0.15",
        lastSeen: new Date(now.getTime() - 26 * 60 * 60 * 1000),
        version: "4.11.3",
        computers: 9,
        users: 8,
        maxUsers: 10,
        devices: 9,
        credentials: 87,
        locksThisMonth: 960,
        locksThisYear: 11022,
        unlocksThisMonth: 941,
        unlocksThisYear: 10870,
        webCredentialsUsedThisMonth: 45,
        webCredentialsUsedThisYear: 601,
      },
    ]);
    // Harbor Dental Group's cloud Hub: the distributor's, made from (and licensed to) its end customer's license.
    const resellerHubId = randomUUID();
    await tx.insert(schema.hubInstallations).values({
      id: resellerHubId,
      ownerId: secureLine.id,
      licenseeId: harborLicense.licenseeId,
      type: "cloud",
      url: cloudHubUrl(RESELLER_CLOUD_HUB.subdomain),
      lastSeen: new Date(now.getTime() - 3 * 60 * 60 * 1000),
      ...DEMO_CLOUD_HUB_USAGE,
      maxUsers: harborLicense.nodes,
      adminToken: resellerHubSession ? sealSecret(resellerHubSession) : null,
    });
    await tx.insert(schema.hubInstallationLicenses).values([
      { hubInstallationId: cloudHubId, licenseId: cloudInUse.id },
      { hubInstallationId: localHubId, licenseId: onPremise.id },
      { hubInstallationId: localHubId, licenseId: expired.id },
      { hubInstallationId: resellerHubId, licenseId: harborLicense.id },
    ]);
    return true;
  });
}
