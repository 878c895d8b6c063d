import { redirect } from "@remix-run/node";
import { and, asc, desc, eq, gt, gte, inArray, lt, lte, or } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import type { SubscriptionStatus } from "~db/billing-values";
import {
  movedCustomerName,
  renewalAmount,
  renewalsHref,
  renewalWindowOf,
  RENEWAL_WINDOWS,
  RENEWALS_PER_PAGE,
  type RenewalWindow,
} from "~/domain/customers";
import { formatCents, formatDate } from "~/domain/format";
import { updateStepUrl } from "~/domain/license-update";
import { describeCard } from "~/domain/payment-cards";
import { afterCheckoutUrls } from "~/domain/renewals";
import { besidePages, pageOfRows, pageStartOf, readsBackward, type PageStart, type RowKey } from "~/domain/row-pages";
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
 * The terms that end after `now` and by `end`, from where the page starts: after its key (or before it, going back),
 * the key's license number settling a tie on the day. Each side bounds the term's end once, by the nearer of the
 * window's edge and the key, so that the index range starts at the page's first row.
 */
function termsEndingIn(now: Date, end: Date, start: PageStart) {
  const termEnd = subscriptions.currentTermEnd;
  const license = licenses.externalLicenseId;
  if (start === null) return and(gt(termEnd, now), lte(termEnd, end));
  if ("after" in start) {
    const at = new Date(start.after.at);
    return and(
      at > now ? gte(termEnd, at) : gt(termEnd, now),
      lte(termEnd, end),
      or(gt(termEnd, at), gt(license, start.after.tie)),
    );
  }
  const at = new Date(start.before.at);
  return and(gt(termEnd, now), lte(termEnd, at < end ? at : end), or(lt(termEnd, at), lt(license, start.before.tie)));
}

/**
 * The renewals in the window, soonest first (by the day the term ends, then the license number): the distributor's
 * subscriptions whose term ends in it, each with its license and the end customer the license is for (`moved` when
 * that customer is now another distributor's). One page from its start, or every row (the CSV), ordered in SQL.
 * A page reads its own rows and one more, to know whether another page follows: never the whole window, so neither
 * a count of it nor an offset into it, both of which walked every renewal of the window before the page's.
 */
async function renewalsIn(
  resellerId: string,
  { now, within, start }: { now: Date; within: RenewalWindow; start: PageStart | "all" },
) {
  const backward = start !== "all" && readsBackward(start);
  const query = db
    // The columns the view shows, not whole rows: a license row carries its signed file.
    .select({
      subscription: {
        id: subscriptions.id,
        planId: subscriptions.planId,
        planQuantity: subscriptions.planQuantity,
        addons: subscriptions.addons,
        status: subscriptions.status,
        currentTermEnd: subscriptions.currentTermEnd,
      },
      license: { externalLicenseId: licenses.externalLicenseId, nodes: licenses.nodes },
      customer: { id: organizations.id, name: organizations.name, managedBy: organizations.managedBy },
    })
    .from(subscriptions)
    // The subscription's license, and the end customer the license is for: the distributor's own, or one since moved
    // to another distributor, whose renewals this one still pays for.
    .innerJoin(
      licenses,
      and(eq(licenses.subscriptionId, subscriptions.id), eq(licenses.ownerId, subscriptions.ownerId)),
    )
    .innerJoin(organizations, eq(organizations.id, licenses.licenseeId))
    .where(
      and(
        eq(subscriptions.ownerId, resellerId),
        inArray(subscriptions.status, AHEAD),
        termsEndingIn(now, new Date(now.getTime() + within * DAY), start === "all" ? null : start),
      ),
    )
    .orderBy(
      ...[subscriptions.currentTermEnd, licenses.externalLicenseId].map((column) =>
        backward ? desc(column) : asc(column),
      ),
    );
  const [rows, { prices, planNames }] = await Promise.all([
    start === "all" ? query : query.limit(RENEWALS_PER_PAGE + 1),
    catalogue(),
  ]);
  const {
    rows: page,
    earlier,
    later,
  } = start === "all" ? { rows, earlier: false, later: false } : pageOfRows(rows, start, RENEWALS_PER_PAGE);
  return {
    earlier,
    later,
    // Built field by field: object rest and spread take V8's slow path, which was a tenth of the CPU a page of
    // renewals adds.
    renewals: page.map(({ subscription, license, customer }) => ({
      customer: { id: customer.id, name: customer.name, moved: customer.managedBy !== resellerId },
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

const keyOf = (renewal: { on: Date; externalLicenseId: string }): RowKey => ({
  at: renewal.on.getTime(),
  tie: renewal.externalLicenseId,
});

/** /customers/renewals: one page of the window's renewals, with the links to change each and to the pages beside. */
export async function renewalsPage(request: Request) {
  const member = await requireMember(request, "customers.renewals");
  const url = new URL(request.url);
  const within = windowOf(url);
  const start = pageStartOf(url.searchParams);
  if (start === "invalid") throw redirect(renewalsHref(within));
  const [page, card] = await Promise.all([
    renewalsIn(member.organization.id, { now: await portalNow(), within, start }),
    renewalCard(member),
  ]);
  // The rows the address started from have left the window (renewed, or the day passed): its first page instead.
  if (start !== null && page.renewals.length === 0) throw redirect(renewalsHref(within));
  const mayUpdate = mayDo(member, "licenses.update");
  const mayChangeAutoRenew = mayDo(member, "licenses.auto_renew");
  return {
    within,
    card,
    ...besidePages({ ...page, rows: page.renewals }, keyOf, (beside) => renewalsHref(within, beside)),
    // The subscription goes to the page only inside its links: each row's data is written into the page twice.
    renewals: page.renewals.map((renewal) => ({
      customer: renewal.customer,
      externalLicenseId: renewal.externalLicenseId,
      plan: renewal.plan,
      users: renewal.users,
      on: renewal.on.toISOString(),
      renews: renewal.renews,
      amount: renewal.amount,
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
    renewalsIn(member.organization.id, { now: await portalNow(), within, start: "all" }),
    renewalCard(member),
  ]);
  const csv = stringify(
    renewals.map((renewal) => [
      asText(renewal.customer.moved ? movedCustomerName(renewal.customer.name) : renewal.customer.name),
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
