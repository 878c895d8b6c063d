import { and, eq } from "drizzle-orm";
import { POLICY } from "~/domain/access-policy";
import { formatCents, formatDate } from "~/domain/format";
import { afterCheckoutUrls, BANK_ASKS_TO_CONFIRM } from "~/domain/renewals";
import { findOrganization, membersInRoles } from "~/server/accounts/index.server";
import { AUTHENTICATION_REQUIRED } from "~/server/billing/index.server";
import { queueMail, scheduledLinkOrigin } from "~/server/mail/index.server";
import { db } from "~/server/platform/database/db.server";
import { invoices, licenses } from "~/server/platform/database/tables.server";

/** The subject of the mail a failed renewal sends (the notice's title on the pages). */
export const failedRenewalSubject = (licenseName: string) => `The renewal of ${licenseName} could not be charged`;

/**
 * Mails the people who pay the account's invoices that a renewal's payment failed, after the provider's
 * `payment_failed` event is applied (the account's copy of the invoice is the event's): what is due, the day the
 * license stops, why when the provider said the card's bank asks the cardholder to confirm the payment, and Pay now.
 * Nothing when the invoice is no longer due (paid meanwhile) or is not a renewal. One message per person and
 * event, each queued once by its key, so a rerun of the event's job mails nobody twice.
 */
export async function mailFailedRenewal(ownerId: string, eventId: string, invoiceId: string): Promise<number> {
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.ownerId, ownerId), eq(invoices.id, invoiceId)));
  if (invoice?.purpose !== "renewal" || !invoice.subscriptionId) return 0;
  if (invoice.status !== "payment_due" || invoice.amountDue === 0) return 0;
  const [license] = await db
    .select()
    .from(licenses)
    .where(and(eq(licenses.ownerId, ownerId), eq(licenses.subscriptionId, invoice.subscriptionId)))
    .limit(1);
  const organization = await findOrganization(ownerId);
  if (!license || !organization) return 0;
  const people = await membersInRoles(ownerId, POLICY["invoices.pay"].roles);
  const payUrl = new URL(afterCheckoutUrls.payNow(invoice.id), scheduledLinkOrigin()).href;
  for (const person of people) {
    await queueMail({
      accountId: ownerId,
      to: person.email,
      subject: failedRenewalSubject(license.name),
      content: {
        paragraphs: [
          `Hello ${person.firstName},`,
          `${formatCents(invoice.amountDue)} is due for license ${license.externalLicenseId} of ${organization.name} ` +
            `(invoice ${invoice.number}). The license stops on ${formatDate(license.validTo)} unless it is paid.`,
          invoice.paymentFailure === AUTHENTICATION_REQUIRED
            ? BANK_ASKS_TO_CONFIRM
            : "The card on file could not be charged. Pay now, with that card or another.",
        ],
        action: { label: "Pay now", url: payUrl },
      },
      key: `failed-renewal:${eventId}:${person.userId}`,
    });
  }
  return people.length;
}
