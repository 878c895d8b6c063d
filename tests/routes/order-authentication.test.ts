import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { subscriptionDraftSchema } from "~/domain/new-subscription";
import { action as progressAction, loader as progressLoader } from "~/routes/_portal.store.orders.$jobId";
import { action as bankAction, loader as bankLoader } from "~/routes/cards.authenticate.$attemptId";
import { getBilling, getBillingClock } from "~/server/billing/index.server";
import { getCards } from "~/server/cards/index.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { orderReview, purchase } from "~/server/orders/new-subscription-order.server";
import { subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { db } from "~/server/platform/database/db.server";
import { billingInvoices } from "~/server/platform/database/tables.server";
import { JobRunner } from "~/server/platform/jobs/runner.server";
import { authenticatedTokenOf } from "../support/card-tokens";
import { setupOf } from "~/server/providers/card-vault.server";
import { memberByEmail } from "../support/members";
import { formRequest, getRequest } from "../support/requests";
import { demoCookie } from "../support/sign-in";

/**
 * A new license paid with a card whose bank asks the cardholder to authenticate the payment, through the order's
 * progress page, the embedded bank's page and the return to the progress page, called as Remix calls them.
 */

type Route = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;
const CUSTOMER = "customer@example.com";
const drain = () => new JobRunner(JOB_KINDS).drain();

const settle = (run: Promise<unknown>) =>
  run.then(
    (response) => response,
    (thrown: unknown) => (thrown instanceof Response ? thrown : Promise.reject(thrown)),
  );

const get = async (route: Route, path: string, email: string, params: Record<string, string>) =>
  settle(route({ request: getRequest(path, await demoCookie(email)), params, context: {} }));

async function invoiceCount() {
  const [row] = await db.select({ n: count() }).from(billingInvoices);
  return row?.n ?? 0;
}

async function savedCard(customerId: string, number: string) {
  const form = new FormData();
  form.set("card_number", number);
  form.set("card_expiry", "12 / 34");
  form.set("card_cvc", "123");
  const holder = { firstName: "Ada", lastName: "Lovelace" };
  const tmpToken = await authenticatedTokenOf(getCards(), form, holder, randomUUID());
  return (
    await getBilling().createPaymentSourceFromTempToken({ customerId, setAsPrimary: true, tmpToken }, randomUUID())
  ).id;
}

/** An order paid with a 3184 card, placed and run until it waits; its progress page. */
async function waitingOrder(organization: string) {
  const member = await memberByEmail(CUSTOMER);
  const paymentSourceId = await savedCard(member.organization.billingCustomerId!, "4000002760003184");
  await subscriptionWizard.save(member, {
    ...subscriptionDraftSchema.parse({}),
    organization,
    users: 5,
    paymentSourceId,
    completed: ["plan", "hosting", "hardware", "support", "review", "billing"],
  });
  const result = await purchase(member, (await orderReview(member)).orderKey!);
  if (!("jobId" in result)) throw new Error("not placed");
  await drain();
  return { jobId: result.jobId, path: `/store/orders/${result.jobId}`, params: { jobId: result.jobId } };
}

type ProgressPage = {
  view: { status: string; waiting: { redirectUrl: string; message: string | null } | null };
  cards: { step: { status: string; sources?: { id: string }[] }; waitingOn: string } | null;
};

describe("an order whose card's bank asks for the payment's authentication", () => {
  it("sends the cardholder to the bank's page, and its return charges once however often it comes", async () => {
    const order = await waitingOrder("Northwind Bank Page");
    const page = (await get(progressLoader, order.path, CUSTOMER, order.params)) as ProgressPage;
    expect(page.view).toMatchObject({ status: "waiting_for_cardholder", waiting: { message: null } });
    expect(page.cards?.step.status).toBe("ready");
    expect(page.view.waiting!.redirectUrl).toBe(`/cards/authenticate/${page.cards!.waitingOn}`);
    const bankPath = page.view.waiting!.redirectUrl;
    const attemptId = bankPath.split("/").pop()!;
    const bank = await bankLoader({ request: getRequest(bankPath), params: { attemptId }, context: {} });
    expect(bank).toMatchObject({ waiting: true, payment: { amount: expect.any(Number) as number } });

    const answer = (await settle(
      bankAction({
        request: await formRequest(bankPath, { outcome: "complete" }, { withCsrf: false }),
        params: { attemptId },
        context: {},
      }),
    )) as Response;
    const back = answer.headers.get("Location")!;
    expect(back).toBe(`${order.path}?payment_intent=${attemptId}&redirect_status=succeeded`);

    // Another organization's member is not shown the order, nor can they start it.
    const stranger = (await get(progressLoader, back, "distributor@example.com", order.params)) as Response;
    expect(stranger.status).toBe(404);

    const invoicesBefore = await invoiceCount();
    const returns = (await Promise.all([
      get(progressLoader, back, CUSTOMER, order.params),
      get(progressLoader, back, CUSTOMER, order.params),
    ])) as Response[];
    for (const response of returns) expect(response.headers.get("Location")).toBe(order.path);
    await Promise.all([drain(), drain()]);
    const done = (await get(progressLoader, order.path, CUSTOMER, order.params)) as ProgressPage;
    expect(done.view.status).toBe("succeeded");
    expect(await invoiceCount()).toBe(invoicesBefore + 1);
    // The bank's page reloaded: answered already, and its return starts nothing.
    expect(await bankLoader({ request: getRequest(bankPath), params: { attemptId }, context: {} })).toMatchObject({
      waiting: false,
    });
    await get(progressLoader, back, CUSTOMER, order.params);
    await drain();
    expect(await invoiceCount()).toBe(invoicesBefore + 1);
  });

  it("'Choose another card' starts the same order over on the card chosen, once from two tabs", async () => {
    const order = await waitingOrder("Northwind Other Card");
    const member = await memberByEmail(CUSTOMER);
    const customerId = member.organization.billingCustomerId!;
    const [asks, other] = [
      await savedCard(customerId, "4000000000003220"),
      await savedCard(customerId, "4242424242424242"),
    ];
    const invoicesBefore = await invoiceCount();
    const shown = ((await get(progressLoader, order.path, CUSTOMER, order.params)) as ProgressPage).cards!.waitingOn;
    const choose = async (card: string, waitingOn: string) => {
      const request = await formRequest(
        order.path,
        { intent: "next", payment_source_id: card, waiting_on: waitingOn },
        { cookie: await demoCookie(CUSTOMER) },
      );
      const chosen = (await settle(progressAction({ request, params: order.params, context: {} }))) as Response;
      expect(chosen.headers.get("Location")).toBe(order.path);
    };
    // The first tab chooses a card whose bank asks too: the order waits on it, on a new bank page.
    await choose(asks, shown);
    await drain();
    const waiting = (await get(progressLoader, order.path, CUSTOMER, order.params)) as ProgressPage;
    expect(waiting.view.status).toBe("waiting_for_cardholder");
    expect(waiting.cards!.waitingOn).not.toBe(shown);
    // The second tab, still showing the first bank page, chooses another card: it is shown the order as it now is.
    await choose(other, shown);
    await drain();
    expect(((await get(progressLoader, order.path, CUSTOMER, order.params)) as ProgressPage).cards!.waitingOn).toBe(
      waiting.cards!.waitingOn,
    );
    expect(await invoiceCount()).toBe(invoicesBefore);

    await choose(other, waiting.cards!.waitingOn);
    await drain();
    const done = (await get(progressLoader, order.path, CUSTOMER, order.params)) as ProgressPage;
    expect(done.view.status).toBe("succeeded");
    expect(await invoiceCount()).toBe(invoicesBefore + 1);
  });
});

// Last in the file: the time machine moves the engine's clock for good.
describe("a bank page the cardholder comes back to after its hour", () => {
  it("says the authentication expired and sends them back, where a new bank page charges once", async () => {
    const order = await waitingOrder("Northwind Bank Page Expired");
    const bankOf = async () => {
      const page = (await get(progressLoader, order.path, CUSTOMER, order.params)) as ProgressPage;
      const path = page.view.waiting!.redirectUrl;
      return { path, attemptId: path.split("/").pop()! };
    };
    const answer = async (bank: { path: string; attemptId: string }) =>
      (
        (await settle(
          bankAction({
            request: await formRequest(bank.path, { outcome: "complete" }, { withCsrf: false }),
            params: { attemptId: bank.attemptId },
            context: {},
          }),
        )) as Response
      ).headers.get("Location")!;
    const expired = await bankOf();
    await getBillingClock()!.advance(1);
    const invoicesBefore = await invoiceCount();

    const back = `${order.path}?payment_intent=${expired.attemptId}&redirect_status=failed`;
    expect(
      await bankLoader({ request: getRequest(expired.path), params: { attemptId: expired.attemptId }, context: {} }),
    ).toMatchObject({ waiting: false, expired: true, returnUrl: back });
    // A tab left open on the page: completing it answers nothing, and sends the cardholder back.
    expect(await answer(expired)).toBe(back);
    expect((await setupOf(db, expired.attemptId))?.status).toBe("requires_action");

    const returned = (await get(progressLoader, back, CUSTOMER, order.params)) as Response;
    expect(returned.headers.get("Location")).toBe(order.path);
    await drain();
    const fresh = await bankOf();
    expect(fresh.attemptId).not.toBe(expired.attemptId);
    expect(await invoiceCount()).toBe(invoicesBefore);

    await get(progressLoader, await answer(fresh), CUSTOMER, order.params);
    await drain();
    const done = (await get(progressLoader, order.path, CUSTOMER, order.params)) as ProgressPage;
    expect(done.view.status).toBe("succeeded");
    expect(await invoiceCount()).toBe(invoicesBefore + 1);
  });
});
