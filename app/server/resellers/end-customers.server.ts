import { randomUUID } from "node:crypto";
import { json } from "@remix-run/node";
import { and, asc, count, desc, eq, exists, gt, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { SubscriptionStatus } from "~db/billing-values";
import { renewalAmount, type CustomerRecord } from "~/domain/customers";
import { invoiceForOf, invoiceStatusLabel } from "~/domain/renewals";
import { memberActor, recordActivity, type ActivityActor, type Scope } from "~/server/accounts/index.server";
import { db } from "~/server/platform/database/db.server";
import {
  hubInstallations,
  invoices,
  licenses,
  organizationCounts,
  organizations,
  subscriptions,
} from "~/server/platform/database/tables.server";
import { catalogue, licenseListItem } from "~/server/subscriptions/index.server";

/**
 * A distributor's end customers: organizations it manages (organizations.managed_by), each with the licenses the
 * distributor bought for it (owner_id the distributor, licensee_id the end customer) and the Hubs made from them.
 * Every read is the distributor's own: another distributor's customer, or an organization of its own, is a 404,
 * and of a customer a distributor sees the renewals and invoices only of what it sold; of licenses another
 * distributor that managed the customer before sold it, only that the customer holds them.
 */

export type EndCustomer = typeof organizations.$inferSelect;

/** The distributor's end customer with this id, or null. */
export async function customerOf(resellerId: string, customerId: string): Promise<EndCustomer | null> {
  const [customer] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, customerId), eq(organizations.managedBy, resellerId)));
  return customer ?? null;
}

/** The distributor's end customer, or 404 (another distributor's, an organization of its own, an unknown id). */
export async function requireCustomer(resellerId: string, customerId: string): Promise<EndCustomer> {
  const customer = await customerOf(resellerId, customerId);
  if (!customer) throw json({ message: "There is no such customer." }, { status: 404 });
  return customer;
}

/** How many of a distributor's customers a choice of customer lists; the customers list and pages reach the others. */
const CUSTOMER_CHOICES = 100;

/**
 * The distributor's end customers a choice of customer offers (an order's plan step, the trial chooser), by name:
 * the first CUSTOMER_CHOICES, the one already chosen among them, and whether there are more (the customers list
 * finds those, and a customer's page starts its order or trial).
 */
export async function customerChoices(resellerId: string, chosen: { id: string; name: string } | null) {
  const rows = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(eq(organizations.managedBy, resellerId))
    .orderBy(asc(organizations.name), asc(organizations.id))
    .limit(CUSTOMER_CHOICES + 1);
  const customers = rows.slice(0, CUSTOMER_CHOICES);
  const listed = !chosen || customers.some((choice) => choice.id === chosen.id);
  return {
    customers: listed ? customers : [{ id: chosen.id, name: chosen.name }, ...customers],
    more: rows.length > CUSTOMER_CHOICES,
  };
}

// Prepared once, as the team and invoices pages' totals are: the customers page reads it on every visit.
const endCustomerTotalOf = db
  .select({ total: organizationCounts.endCustomers })
  .from(organizationCounts)
  .where(eq(organizationCounts.organizationId, sql.placeholder("distributorId")))
  .prepare("end_customer_total_of");

/**
 * How many end customers the distributor has: organization_counts' total, kept by triggers as customers are added,
 * moved or removed (decision 237). Counting them walked every one, so a page cost more the more customers there were.
 */
export async function endCustomerCount(distributorId: string): Promise<number> {
  const [counted] = await endCustomerTotalOf.execute({ distributorId });
  return counted?.total ?? 0;
}

/** The statuses of a subscription that renews at its term's end. */
const RENEWING: SubscriptionStatus[] = ["active", "future"];

/** Name, contact email, license id or subscription id containing the search, in any case. */
function matching(resellerId: string, search: string): SQL | undefined {
  const term = search.trim();
  if (!term) return undefined;
  const pattern = `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const like = (column: SQL | typeof organizations.name) => sql`lower(${column}) like lower(${pattern}) escape '\\'`;
  const licensed = db
    .select({ id: licenses.id })
    .from(licenses)
    .where(
      and(
        eq(licenses.licenseeId, organizations.id),
        eq(licenses.ownerId, resellerId),
        or(like(sql`${licenses.externalLicenseId}`), like(sql`coalesce(${licenses.subscriptionId}, '')`)),
      ),
    );
  return or(like(organizations.name), like(sql`${organizations.contactEmail}`), exists(licensed));
}

/**
 * One page of the distributor's end customers by name, with how many match (without a search, the distributor's
 * total kept by triggers; with one, counted), paged in SQL off the (managed_by, name, id) index. Each row's licenses
 * are counted, and its next renewal found, by subqueries on the page's rows only, so a distributor with thousands of
 * customers costs about what one with three does.
 */
export async function customerPage(
  resellerId: string,
  { search, page, pageSize, now }: { search: string; page: number; pageSize: number; now: Date },
) {
  const searching = matching(resellerId, search);
  const where = and(eq(organizations.managedBy, resellerId), searching);
  const ofRow = and(eq(licenses.licenseeId, organizations.id), eq(licenses.ownerId, resellerId));
  // From the row's few licenses to their subscriptions, in that order: SQLite would otherwise walk the
  // distributor's subscriptions by term end (an index that serves its renewals view) looking for this customer's.
  // A cross join fixes the order on SQLite; PostgreSQL plans it as the join it is.
  const nextRenewal = db
    .select({ id: subscriptions.id })
    .from(licenses)
    .crossJoin(subscriptions)
    .where(
      and(
        ofRow,
        eq(subscriptions.id, licenses.subscriptionId),
        eq(subscriptions.ownerId, licenses.ownerId),
        inArray(subscriptions.status, RENEWING),
        gt(subscriptions.currentTermEnd, now),
      ),
    )
    .orderBy(asc(subscriptions.currentTermEnd))
    .limit(1);
  const [total, rows, { prices }] = await Promise.all([
    searching
      ? db
          .select({ total: count() })
          .from(organizations)
          .where(where)
          .then(([counted]) => counted?.total ?? 0)
      : endCustomerCount(resellerId),
    db
      .select({
        id: organizations.id,
        name: organizations.name,
        country: organizations.country,
        contactName: organizations.contactName,
        licenses: sql<number>`(select count(*) from ${licenses} where ${ofRow})`.mapWith(Number),
        nextRenewalId: sql<string | null>`(${nextRenewal})`,
      })
      .from(organizations)
      .where(where)
      .orderBy(asc(organizations.name), asc(organizations.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    catalogue(),
  ]);
  const renewalIds = rows.flatMap((row) => (row.nextRenewalId ? [row.nextRenewalId] : []));
  // By id alone, then the owner checked here: with the owner in the statement, SQLite walks every subscription of
  // the distributor by an owner index instead of looking up the page's few ids.
  const renewals = renewalIds.length
    ? (await db.select().from(subscriptions).where(inArray(subscriptions.id, renewalIds))).filter(
        (subscription) => subscription.ownerId === resellerId,
      )
    : [];
  return {
    total,
    customers: rows.map(({ nextRenewalId, ...row }) => {
      const renewal = renewals.find((subscription) => subscription.id === nextRenewalId);
      return {
        ...row,
        nextRenewal:
          renewal?.currentTermEnd != null
            ? { on: renewal.currentTermEnd, amount: renewalAmount(renewal, prices) }
            : null,
      };
    }),
  };
}

/**
 * Adds the distributor's end customer `id`, with an entry in both activity logs: from the customer form, or when an
 * order for a new customer is paid for (the order job's id as the customer's, so a repeat of its step adds nothing
 * and writes no second entry).
 */
export async function addCustomer(
  { resellerId, actor }: { resellerId: string; actor: ActivityActor },
  record: CustomerRecord,
  id: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [reseller] = await tx
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, resellerId));
    const added = await tx
      .insert(organizations)
      .values({ id, customerType: "customer", managedBy: resellerId, ...record })
      .onConflictDoNothing()
      .returning({ id: organizations.id });
    if (added.length === 0) return;
    await recordActivity(tx, {
      organizationId: resellerId,
      actor,
      action: "customer.created",
      summary: `Added the end customer ${record.name}.`,
    });
    await recordActivity(tx, {
      organizationId: id,
      actor,
      action: "organization.created",
      summary: `${reseller?.name ?? ""} added this organization as its end customer.`,
    });
  });
}

/** The distributor's member adds an end customer from its form. */
export async function createCustomer(member: Scope, record: CustomerRecord): Promise<{ id: string }> {
  const id = randomUUID();
  await addCustomer({ resellerId: member.organization.id, actor: memberActor(member.user) }, record, id);
  return { id };
}

/** Changes an end customer's record (its distributor's), with an entry in both activity logs. */
export async function updateCustomer(member: Scope, customerId: string, record: CustomerRecord): Promise<void> {
  const resellerId = member.organization.id;
  await requireCustomer(resellerId, customerId);
  await db.transaction(async (tx) => {
    await tx
      .update(organizations)
      .set(record)
      .where(and(eq(organizations.id, customerId), eq(organizations.managedBy, resellerId)));
    for (const organizationId of [resellerId, customerId]) {
      await recordActivity(tx, {
        organizationId,
        actor: memberActor(member.user),
        action: "customer.updated",
        summary: `Changed the record of the end customer ${record.name}.`,
      });
    }
  });
}

/** How many of what a customer's page lists it shows: a customer's page is a summary, its lists are short. */
const SHOWN = 50;

/**
 * What the distributor sees of one end customer: the licenses it bought for it (newest first, with their
 * renewal), the Hubs made from them, the invoices of those licenses' subscriptions (its orders and renewals),
 * and its upcoming renewals.
 */
export async function customerDetail(resellerId: string, customer: EndCustomer, now: Date) {
  const ofCustomer = and(eq(licenses.ownerId, resellerId), eq(licenses.licenseeId, customer.id));
  const [licenseRows, heldElsewhere, hubRows, { prices }] = await Promise.all([
    db
      .select({
        license: licenses,
        subscription: subscriptions,
      })
      .from(licenses)
      .leftJoin(
        subscriptions,
        and(eq(subscriptions.id, licenses.subscriptionId), eq(subscriptions.ownerId, licenses.ownerId)),
      )
      .where(ofCustomer)
      .orderBy(desc(licenses.validFrom), desc(licenses.id))
      .limit(SHOWN),
    // What the customer holds through another distributor (the one that managed it before a move): that one's to
    // pay for and renew until it ends, shown here so its distributor knows what the customer has, without prices.
    db
      .select()
      .from(licenses)
      .where(and(eq(licenses.licenseeId, customer.id), ne(licenses.ownerId, resellerId)))
      .orderBy(desc(licenses.validFrom), desc(licenses.id))
      .limit(SHOWN),
    db
      .select({
        id: hubInstallations.id,
        type: hubInstallations.type,
        url: hubInstallations.url,
        ip: hubInstallations.ip,
        lastSeen: hubInstallations.lastSeen,
        users: hubInstallations.users,
        maxUsers: hubInstallations.maxUsers,
      })
      .from(hubInstallations)
      .where(and(eq(hubInstallations.ownerId, resellerId), eq(hubInstallations.licenseeId, customer.id)))
      .orderBy(desc(hubInstallations.lastSeen), desc(hubInstallations.id))
      .limit(SHOWN),
    catalogue(),
  ]);
  const subscriptionIds = licenseRows.flatMap(({ license }) =>
    license.subscriptionId ? [license.subscriptionId] : [],
  );
  const invoiceRows = subscriptionIds.length
    ? await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.ownerId, resellerId), inArray(invoices.subscriptionId, subscriptionIds)))
        .orderBy(desc(invoices.date), desc(invoices.id))
        .limit(SHOWN)
    : [];
  const renewing = licenseRows.flatMap(({ license, subscription }) =>
    subscription &&
    subscription.currentTermEnd &&
    subscription.currentTermEnd > now &&
    ["active", "future", "non_renewing"].includes(subscription.status)
      ? [
          {
            licenseId: license.id,
            externalLicenseId: license.externalLicenseId,
            subscriptionId: subscription.id,
            on: subscription.currentTermEnd,
            renews: subscription.status !== "non_renewing",
            amount: renewalAmount(subscription, prices),
          },
        ]
      : [],
  );
  return {
    licenses: licenseRows.map(({ license, subscription }) => ({
      ...licenseListItem(license, now),
      subscriptionStatus: subscription?.status ?? null,
    })),
    heldElsewhere: heldElsewhere.map((license) => licenseListItem(license, now)),
    hubs: hubRows,
    invoices: invoiceRows.map((invoice) => ({
      id: invoice.id,
      number: invoice.number,
      date: invoice.date,
      for: invoiceForOf(invoice.purpose, false),
      status: invoiceStatusLabel(invoice.status),
      total: invoice.total,
    })),
    renewals: renewing.sort((a, b) => a.on.getTime() - b.on.getTime()),
  };
}
