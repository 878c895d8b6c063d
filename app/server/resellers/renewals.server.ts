import { redirect } from "@remix-run/node";
import { and, asc, count, eq, gt, inArray, lte } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import type { SubscriptionStatus } from "~db/billing-values";
import {
  renewalAmount,
  renewalsHref,
  renewalWindowOf,
  RENEWAL_WINDOWS,
  RENEWALS_PER_PAGE,
  type RenewalWindow,
} from "~/domain/customers";
import { formatCents, formatDate } from "~/domain/format";
import { updateStepUrl } from "~/domain/license-update";
import { pageCount, requestedPage } from "~/domain/pagination";
import { describeCard } from "~/domain/payment-cards";
import { afterCheckoutUrls } from "~/domain/renewals";
import { renewalCardOf } from "~/server/account-billing/index.server";
import { mayDo, requireMember, type Scope } from "~/server/accounts/index.server";
import { portalNow, ProviderError } from "~/server/billing/index.server";
import { catalogue } from "~/server/subscriptions/index.server";
import { db } from "~/server/platform/database/db.server";
import { licenses, organizations, subscriptions } from "~/server/platform/database/tables.server";

/**
 * Every renewal of the licenses a distributor bought for its end customers, in the next 30, 60 or 90 days
 * (/customers/renewals, and the same rows as CSV for the distributor's own systems): customer, license, plan,
 * users, the date, what it will cost at list price, whether it renews or ends, and the card it will be charged to.
 */

const DAY = 24 * 60 * 60 * 1000;

/** A subscription whose term ends ahead: it renews then (active, future) or ends (auto-renew off). */
const AHEAD: SubscriptionStatus[] = ["active", "future", "non_renewing"];

/**
 * The renewals in the window, soonest first: the distributor's subscriptions whose term ends in it, each with its
 * license and the end customer the license is for (its own customers only: managed_by is the distributor). One
 * page, or every row (the CSV), counted and ordered in SQL.
 */
async function renewalsIn(
  resellerId: string,
  { now, within, page }: { now: Date; within: RenewalWindow; page: number | "all" },
) {
  const where = and(
    eq(subscriptions.ownerId, resellerId),
    inArray(subscriptions.status, AHEAD),
    gt(subscriptions.currentTermEnd, now),
    lte(subscriptions.currentTermEnd, new Date(now.getTime() + within * DAY)),
  );
  // The subscription's license, and the distributor's own end customer the license is for.
  const withLicense = and(eq(licenses.subscriptionId, subscriptions.id), eq(licenses.ownerId, subscriptions.ownerId));
  const ofCustomer = and(eq(organizations.id, licenses.licenseeId), eq(organizations.managedBy, resellerId));
  const rowsQuery = db
    .select({
      subscription: subscriptions,
      license: licenses,
      customer: { id: organizations.id, name: organizations.name },
    })
    .from(subscriptions)
    .innerJoin(licenses, withLicense)
    .innerJoin(organizations, ofCustomer)
    .where(where)
    .orderBy(asc(subscriptions.currentTermEnd), asc(licenses.externalLicenseId));
  // Only a page needs the total (for its page links); the CSV's rows are all of them.
  const counting =
    page === "all"
      ? Promise.resolve(null)
      : db
          .select({ total: count() })
          .from(subscriptions)
          .innerJoin(licenses, withLicense)
          .innerJoin(organizations, ofCustomer)
          .where(where);
  const [counted, rows, { prices, planNames }] = await Promise.all([
    counting,
    page === "all" ? rowsQuery : rowsQuery.limit(RENEWALS_PER_PAGE).offset((page - 1) * RENEWALS_PER_PAGE),
    catalogue(),
  ]);
  return {
    total: counted?.[0]?.total ?? rows.length,
    renewals: rows.map(({ subscription, license, customer }) => ({
      customer,
      licenseId: license.id,
      externalLicenseId: license.externalLicenseId,
      subscriptionId: subscription.id,
      plan: planNames.get(subscription.planId) ?? subscription.planId,
      users: license.nodes,
      on: subscription.currentTermEnd!,
      renews: subscription.status !== "non_renewing",
      amount: renewalAmount(subscription, prices),
    })),
  };
}

/** "Visa ending in 4242": the distributor's card its renewals are charged to; null when it has none to charge. */
async function renewalCard(member: Scope): Promise<string | null> {
  try {
    const card = await renewalCardOf(member);
    return card && describeCard(card);
  } catch (error) {
    // The page still lists the renewals when the provider cannot say which card: it names none.
    if (error instanceof ProviderError) return null;
    throw error;
  }
}

/** The window the URL asks for, or a redirect to the view's own address for anything else. */
function windowOf(url: URL): RenewalWindow {
  const within = renewalWindowOf(url.searchParams.get("within"));
  if (within === null) throw redirect(renewalsHref(RENEWAL_WINDOWS[0]));
  return within;
}

/** /customers/renewals: one page of the window's renewals, with the links to change each. */
export async function renewalsPage(request: Request) {
  const member = await requireMember(request, "customers.renewals");
  const url = new URL(request.url);
  const within = windowOf(url);
  const page = requestedPage(url.searchParams.get("page"));
  if (page === null) throw redirect(renewalsHref(within));
  const [{ total, renewals }, card] = await Promise.all([
    renewalsIn(member.organization.id, { now: await portalNow(), within, page }),
    renewalCard(member),
  ]);
  const pages = pageCount(total, RENEWALS_PER_PAGE);
  if (page > pages) throw redirect(renewalsHref(within, pages));
  const mayUpdate = mayDo(member, "licenses.update");
  const mayChangeAutoRenew = mayDo(member, "licenses.auto_renew");
  return {
    within,
    page,
    pages,
    total,
    card,
    renewals: renewals.map((renewal) => ({
      ...renewal,
      on: renewal.on.toISOString(),
      addUsersUrl: mayUpdate && renewal.renews ? updateStepUrl(renewal.subscriptionId, "product") : null,
      autoRenewUrl: mayChangeAutoRenew ? afterCheckoutUrls.autoRenew(renewal.subscriptionId) : null,
    })),
  };
}

/** /customers/renewals.csv: every renewal of the window, one row each, for the distributor's own systems. */
export async function renewalsCsv(request: Request): Promise<Response> {
  const member = await requireMember(request, "customers.renewals");
  const within = windowOf(new URL(request.url));
  const [{ renewals }, card] = await Promise.all([
    renewalsIn(member.organization.id, { now: await portalNow(), within, page: "all" }),
    renewalCard(member),
  ]);
  const csv = stringify(
    renewals.map((renewal) => [
      asText(renewal.customer.name),
      renewal.externalLicenseId,
      renewal.plan,
      renewal.users,
      formatDate(renewal.on),
      renewal.amount === null ? "" : formatCents(renewal.amount),
      renewal.renews ? "on" : "off",
      card ?? "",
    ]),
    { header: true, columns: CSV_COLUMNS },
  );
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="renewals-next-${within}-days.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}

const CSV_COLUMNS = ["Customer", "License", "Plan", "Users", "Renews on", "Amount", "Auto-renew", "Payment card"];

/**
 * A customer's name is typed by people, and a spreadsheet runs a cell that starts like a formula (=, +, -, @, or
 * a tab or return before one): such a name is given a leading apostrophe, which makes the cell text.
 */
const asText = (typed: string) => (/^[=+\-@\t\r]/.test(typed) ? `'${typed}` : typed);
