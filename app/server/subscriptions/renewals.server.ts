import { randomUUID } from "node:crypto";
import { json } from "@remix-run/node";
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { formatDate } from "~/domain/format";
import { afterCheckoutUrls, type RenewalNoticeView } from "~/domain/renewals";
import type { SubscriptionStatus } from "~db/billing-values";
import { invoices, licenses, subscriptions } from "~/server/platform/database/tables.server";
import { AUTHENTICATION_REQUIRED, getBilling, ProviderError, portalNow } from "~/server/billing/index.server";
import {
  readMemberForm,
  requireMember,
  memberActor,
  recordActivity,
  type ActivityEntry,
  billingAccountOf,
  type BillingAccount,
  redirectWithToast,
} from "~/server/accounts/index.server";
import { idempotencyKeyOf } from "~/server/platform/forms.server";
import { db } from "~/server/platform/database/db.server";
import { saveSubscriptionCopy } from "./copies.server";
import { licenseFollowsSubscription, subscriptionWithLicense } from "./license-follows.server";
import { payableInvoiceIdOf } from "./invoices.server";

/**
 * What a customer can do with a recurring license after checkout: pay a renewal whose payment failed (the notices
 * of the home, licenses and invoices pages) and turn auto-renew off and on (renewing a license whose subscription
 * ended is a new order: orders/renew.server). Every read and write is the account's (billing-accounts.server.ts); another account's id is a 404.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long after its license stopped a subscription ended for an unpaid renewal is still told of. */
const ENDED_NOTICE_DAYS = 30;

export type RenewalNotice =
  | {
      kind: "payment_failed";
      licenseName: string;
      externalLicenseId: string;
      amountDue: number;
      /** The license's last day unless the renewal is paid. */
      stopsOn: Date;
      invoiceId: string;
      /** The provider refused it because the card's bank asks the cardholder to confirm the payment. */
      bankAsks: boolean;
    }
  | { kind: "cancelled_unpaid"; licenseName: string; externalLicenseId: string; licenseId: string; stopsOn: Date };

const NOTICE_STATUSES: SubscriptionStatus[] = ["active", "non_renewing", "future", "cancelled"];

// Compiled once: every page a payer opens asks it.
const owingSubscriptions = db
  .select({ id: subscriptions.id })
  .from(subscriptions)
  .where(
    and(
      eq(subscriptions.ownerId, sql.placeholder("ownerId")),
      inArray(subscriptions.status, NOTICE_STATUSES),
      gt(subscriptions.totalDues, 0),
    ),
  )
  .prepare("owing_subscriptions");

/**
 * The account's renewals that failed and are still due (with the invoice to pay and the day the license stops),
 * and subscriptions the provider cancelled because a renewal was never paid, whose license stopped less than a
 * month ago or is about to: newest first.
 */
export async function renewalNotices(account: BillingAccount, now: Date): Promise<RenewalNotice[]> {
  // The account's subscriptions with something due first, off the (owner, status) index: most accounts have none,
  // and the licenses are read by those subscriptions only, never by walking all of the account's licenses.
  const owing = (await owingSubscriptions.execute({ ownerId: account.ownerId })).map((row) => row.id);
  if (owing.length === 0) return [];
  const rows = await db
    .select({
      status: subscriptions.status,
      totalDues: subscriptions.totalDues,
      licenseId: licenses.id,
      licenseName: licenses.name,
      externalLicenseId: licenses.externalLicenseId,
      validTo: licenses.validTo,
      invoiceId: payableInvoiceIdOf(subscriptions.id, subscriptions.ownerId),
    })
    .from(subscriptions)
    .innerJoin(
      licenses,
      and(eq(licenses.subscriptionId, subscriptions.id), eq(licenses.ownerId, subscriptions.ownerId)),
    )
    .where(
      and(
        eq(subscriptions.ownerId, account.ownerId),
        inArray(subscriptions.id, owing),
        gt(licenses.validTo, new Date(now.getTime() - ENDED_NOTICE_DAYS * DAY_MS)),
      ),
    )
    .orderBy(desc(licenses.validTo));
  const bankAsks = await invoicesTheBankAsksAbout(rows.flatMap((row) => (row.invoiceId ? [row.invoiceId] : [])));
  return rows.flatMap((row): RenewalNotice[] => {
    const license = { licenseName: row.licenseName, externalLicenseId: row.externalLicenseId, stopsOn: row.validTo };
    if (row.status === "cancelled") return [{ kind: "cancelled_unpaid", licenseId: row.licenseId, ...license }];
    return row.invoiceId
      ? [
          {
            kind: "payment_failed",
            amountDue: row.totalDues,
            invoiceId: row.invoiceId,
            bankAsks: bankAsks.has(row.invoiceId),
            ...license,
          },
        ]
      : [];
  });
}

/** Of these unpaid invoices, those the provider refused because the card's bank asks the cardholder to confirm. */
async function invoicesTheBankAsksAbout(invoiceIds: string[]): Promise<Set<string>> {
  if (invoiceIds.length === 0) return new Set();
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(inArray(invoices.id, invoiceIds), eq(invoices.paymentFailure, AUTHENTICATION_REQUIRED)));
  return new Set(rows.map((row) => row.id));
}

// --- auto-renew ---------------------------------------------------------------------------------------------

export type AutoRenewChange =
  | { turn: "off"; licenseName: string; externalLicenseId: string; lastDay: Date }
  | { turn: "on"; licenseName: string; externalLicenseId: string; renewsOn: Date };

const notFound = () => json({ message: "There is no such recurring license." }, { status: 404 });

/** The account's subscription with its license: another account's, or one without a license, is a 404. */
async function ownRecurring(account: BillingAccount, subscriptionId: string) {
  const found = await subscriptionWithLicense(account, subscriptionId);
  if (!found) throw notFound();
  return found;
}

/**
 * What turning auto-renew off or on would do now: off for a subscription that renews (its license's last day is
 * the end of the term it is in), on for one whose cancellation is scheduled and whose term has not ended; null
 * when neither can be done (it was cancelled, or it already is what was asked).
 */
export async function autoRenewChange(
  account: BillingAccount,
  subscriptionId: string,
  now: Date,
): Promise<AutoRenewChange | null> {
  const { copy, license } = await ownRecurring(account, subscriptionId);
  const named = { licenseName: license.name, externalLicenseId: license.externalLicenseId };
  const termEnd = copy.currentTermEnd;
  if (!termEnd || termEnd <= now) return null;
  if (copy.status === "active" || copy.status === "future") return { turn: "off", lastDay: termEnd, ...named };
  if (copy.status === "non_renewing") return { turn: "on", renewsOn: termEnd, ...named };
  return null;
}

export const AUTO_RENEW_FAILED = "Auto-renew could not be changed. Please try again.";

/**
 * Turns auto-renew off (cancelled at the end of the term, nothing more charged) or on again (the scheduled
 * cancellation removed, nothing charged now) at the provider, then keeps what the provider answered as the
 * account's copy, with `entry` in the organization's log in the copy's transaction (the portal's record of the
 * confirmed change and its entry are kept together), and brings the license along: the page shows the new state
 * at once, before the event comes. Both are harmless to repeat; `key` makes a double submit one call.
 */
export async function setAutoRenew(
  account: BillingAccount,
  subscriptionId: string,
  turn: "on" | "off",
  key: string,
  entry: ActivityEntry,
) {
  await ownRecurring(account, subscriptionId);
  if (!account.customerId) throw notFound();
  const billing = getBilling();
  const subscription =
    turn === "off"
      ? await billing.cancelSubscriptionAtTermEnd(account.customerId, subscriptionId, `auto-renew-off:${key}`)
      : await billing.removeScheduledCancellation(account.customerId, subscriptionId, `auto-renew-on:${key}`);
  await db.transaction(async (tx) => {
    await saveSubscriptionCopy(account, subscription, tx);
    await recordActivity(tx, entry);
  });
  await licenseFollowsSubscription(account, subscriptionId);
  return subscription;
}

/** The provider's words when it refused the change (a subscription cancelled meanwhile), else the page's. */
export const autoRenewFailure = (error: unknown) =>
  error instanceof ProviderError && error.kind === "final" && error.providerMessage
    ? error.providerMessage
    : AUTO_RENEW_FAILED;

/** The notices as the pages show them: dates as ISO strings, with where to pay or renew. */
export async function renewalNoticeViews(account: BillingAccount, now: Date): Promise<RenewalNoticeView[]> {
  return (await renewalNotices(account, now)).map((notice) =>
    notice.kind === "payment_failed"
      ? {
          kind: notice.kind,
          licenseName: notice.licenseName,
          externalLicenseId: notice.externalLicenseId,
          amountDue: notice.amountDue,
          stopsOn: notice.stopsOn.toISOString(),
          payUrl: afterCheckoutUrls.payNow(notice.invoiceId),
          bankAsks: notice.bankAsks,
        }
      : {
          kind: notice.kind,
          licenseName: notice.licenseName,
          externalLicenseId: notice.externalLicenseId,
          stopsOn: notice.stopsOn.toISOString(),
          renewUrl: notice.stopsOn <= now ? afterCheckoutUrls.renew(notice.licenseId) : null,
        },
  );
}

// --- the pages' loaders and actions -----------------------------------------------------------------------------

const LICENSES = "/licenses";

/** The auto-renew confirmation's data: what turning it off or on would do, with the form's key. */
export async function autoRenewDialog(request: Request, subscriptionId: string) {
  const member = await requireMember(request, "licenses.auto_renew");
  const change = await autoRenewChange(billingAccountOf(member.organization), subscriptionId, await portalNow());
  if (!change) throw await redirectWithToast(request, LICENSES, { kind: "info", message: AUTO_RENEW_UNCHANGEABLE });
  return {
    change:
      change.turn === "off"
        ? { ...change, lastDay: change.lastDay.toISOString() }
        : { ...change, renewsOn: change.renewsOn.toISOString() },
    key: randomUUID(),
  };
}

export const AUTO_RENEW_UNCHANGEABLE = "Auto-renew cannot be changed on this license any more.";

/** The confirmation posted: auto-renew turned off or on, and back to the licenses page with what it did. */
export async function confirmAutoRenew(request: Request, subscriptionId: string) {
  const { member, formData, intent } = await readMemberForm(request, "licenses.auto_renew");
  const account = billingAccountOf(member.organization);
  const change = await autoRenewChange(account, subscriptionId, await portalNow());
  // A stale confirmation (turned already, in another tab) changes nothing.
  if (!change || change.turn !== intent)
    return redirectWithToast(request, LICENSES, { kind: "info", message: AUTO_RENEW_UNCHANGEABLE });
  try {
    await setAutoRenew(account, subscriptionId, change.turn, `${subscriptionId}:${idempotencyKeyOf(formData)}`, {
      organizationId: account.ownerId,
      actor: memberActor(member.user),
      action: "license.auto_renew_changed",
      summary:
        change.turn === "off"
          ? `Turned off auto-renew of license ${change.externalLicenseId}: its last day is ${formatDate(change.lastDay)}.`
          : `Turned on auto-renew of license ${change.externalLicenseId}: it renews on ${formatDate(change.renewsOn)}.`,
    });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return redirectWithToast(request, LICENSES, { kind: "error", message: autoRenewFailure(error) });
  }
  const message =
    change.turn === "off"
      ? `Auto-renew is off. License ${change.externalLicenseId} stays valid until ${formatDate(change.lastDay)}, its last day, and nothing more is charged.`
      : `Auto-renew is on. License ${change.externalLicenseId} renews on ${formatDate(change.renewsOn)}; nothing was charged now.`;
  return redirectWithToast(request, LICENSES, { kind: "success", message });
}
