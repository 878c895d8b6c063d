import { and, count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BANK_ASKS_TO_CONFIRM } from "~/domain/renewals";
import { action as payAction, loader as payLoader } from "~/routes/_portal.account_.invoices.$invoiceId.pay";
import { loader as paymentLoader } from "~/routes/_portal.account_.invoices.payments.$jobId";
import { loader as licensesLoader } from "~/routes/_portal.licenses";
import { AUTHENTICATION_REQUIRED, getBilling, getBillingClock, onBillingEvents } from "~/server/billing/index.server";
import { db } from "~/server/platform/database/db.server";
import { findOwnedJob, waitingStep } from "~/server/platform/jobs/runner.server";
import { billingClock, billingEvents, invoices, outbox, providerSync } from "~/server/platform/database/tables.server";
import { answerSetup } from "~/server/providers/card-vault.server";
import { storeProviderEvents } from "~/server/subscriptions/event-feed.server";
import { failedRenewalSubject } from "~/server/subscriptions/failed-renewal-mail.server";
import { addCard, buyLicense, newCustomer, paymentsOf } from "../support/accounts";
import { runJobs } from "../support/jobs";
import { freshSession } from "../support/sign-in";
import { openRoute as load, postRoute as post } from "../support/requests";

/**
 * A renewal charged to a card whose bank asks the cardholder to confirm every payment (3-D Secure): charged without
 * them, the bank refuses it, so the invoice is left due as any failed renewal, with the reason; the mail and the
 * Pay now notice say the bank asks; Pay now asks the bank and collects it once.
 */
const ASKS_EVERY_TIME = "4000 0027 6000 3184";

let unlisten: () => void;
beforeAll(() => {
  unlisten = onBillingEvents((events) => storeProviderEvents(events, "engine"));
});
afterAll(() => unlisten());
afterEach(async () => {
  await db.delete(billingClock);
  await db.delete(providerSync);
});

describe("a renewal the card's bank asks the cardholder to confirm", () => {
  it("is left due with the reason, mailed and shown as the bank asking, and Pay now collects it once after the bank's page", async () => {
    const user = await newCustomer("renewal-asks");
    const visa = await addCard(user);
    const { license, subscriptionId } = await buyLicense(user, { users: 3 });
    // The card that renews it now asks on every payment (it was saved through the bank's page).
    const asks = await addCard(user, ASKS_EVERY_TIME);
    await getBilling().deleteLocalPaymentSource(user.billingCustomerId!, visa.id);
    await getBillingClock()!.advance(31);
    await runJobs();

    const [renewal] = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.ownerId, user.id), eq(invoices.purpose, "renewal")));
    expect(renewal).toMatchObject({
      subscriptionId,
      status: "payment_due",
      amountDue: 1200,
      paymentFailure: AUTHENTICATION_REQUIRED,
    });
    expect(renewal.nextRetryAt).not.toBeNull();
    expect(await paymentsOf(renewal.id)).toBe(0);

    // A mail to the people who pay invoices for each failed attempt (the renewal, dunning's retry the next day):
    // what is due, and that the bank asks.
    const mails = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.to, user.user.email), eq(outbox.subject, failedRenewalSubject(license.name))));
    const [failures] = await db
      .select({ n: count() })
      .from(billingEvents)
      .where(and(eq(billingEvents.resourceId, renewal.id), eq(billingEvents.type, "payment_failed")));
    expect(failures.n).toBeGreaterThanOrEqual(1);
    expect(mails).toHaveLength(failures.n);
    for (const mail of mails) {
      expect(mail.text).toContain(BANK_ASKS_TO_CONFIRM);
      expect(mail.text).toContain(`/account/invoices/${renewal.id}/pay`);
    }

    // The Pay now notice and the drawer say it too.
    const cookie = await freshSession(user.user.email);
    const licensesPage = await (await load(licensesLoader, "/licenses", cookie)).json();
    expect(licensesPage.notices).toEqual([
      expect.objectContaining({
        kind: "payment_failed",
        bankAsks: true,
        payUrl: `/account/invoices/${renewal.id}/pay`,
      }),
    ]);
    const pay = `/account/invoices/${renewal.id}/pay`;
    const confirm = await (await load(payLoader, `${pay}?card=${asks.id}`, cookie, { invoiceId: renewal.id })).json();
    expect(confirm.invoice).toMatchObject({ amountDue: 1200, bankAsks: true });

    // Pay now: the job waits for the cardholder, nothing charged.
    const posted = await post(
      payAction,
      pay,
      { intent: "pay", payment_source_id: asks.id, orderKey: confirm.confirm.key },
      cookie,
      { invoiceId: renewal.id },
    );
    const jobId = posted.headers.get("Location")!.split("/").pop()!;
    await runJobs();
    const waiting = await findOwnedJob(user.id, jobId);
    const bankPage = waitingStep(waiting!)?.redirectUrl ?? "";
    expect(bankPage).toMatch(/^\/cards\/authenticate\/pi_local/);
    expect(await paymentsOf(renewal.id)).toBe(0);

    // The cardholder completes the bank's page; its return, reloaded, starts the payment once.
    const intent = decodeURIComponent(bankPage.split("/").pop()!);
    await answerSetup(db, intent, "complete");
    const back = `/account/invoices/payments/${jobId}?payment_intent=${intent}&redirect_status=succeeded`;
    for (let i = 0; i < 2; i += 1) {
      const response = await load(paymentLoader, back, cookie, { jobId });
      expect(response.status).toBe(302);
    }
    await runJobs();
    expect((await findOwnedJob(user.id, jobId))?.status).toBe("succeeded");
    expect(await paymentsOf(renewal.id)).toBe(1);
    expect((await db.select().from(invoices).where(eq(invoices.id, renewal.id)))[0]).toMatchObject({
      status: "paid",
      amountPaid: 1200,
      amountDue: 0,
      paymentFailure: null,
    });
    const after = await (await load(licensesLoader, "/licenses", cookie)).json();
    expect(after.notices).toEqual([]);
  });
});
