import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PO_NUMBER_TOO_LONG } from "~/domain/purchase-orders";
import { acceptanceDetail, QUOTE_ALREADY_ORDERED, QUOTE_KEEPS_ITS_COUPON } from "~/domain/quotes";
import { quoteOrderQuery } from "~/domain/subscription-steps";
import { loader as quoteLoader } from "~/routes/_portal.quotes.$quoteId._index";
import { loader as licensesLoader } from "~/routes/_portal.licenses";
import { loader as layoutLoader } from "~/routes/_portal.store.subscribe";
import { loader as billingLoader } from "~/routes/_portal.store.subscribe.billing";
import { loader as planLoader, action as planAction } from "~/routes/_portal.store.subscribe.plan";
import { loader as orderLoader, action as orderAction } from "~/routes/_portal.store.subscribe.order";
import { action as reviewAction } from "~/routes/_portal.store.subscribe.review";
import { getBilling, portalNow } from "~/server/billing/index.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { subscriptionWizardFor } from "~/server/orders/new-subscription-wizard.server";
import { db } from "~/server/platform/database/db.server";
import { JobRunner } from "~/server/platform/jobs/runner.server";
import {
  activity,
  billingCustomers,
  billingInvoices,
  jobs,
  licenses,
  organizations,
  quoteEvents,
  quotes,
} from "~/server/platform/database/tables.server";
import { createCustomer } from "~/server/resellers/end-customers.server";
import { addCard, newCustomer, subscriptionsOf, type TestCustomer } from "../support/accounts";
import { createAccount, memberByEmail } from "../support/members";
import { openRoute as open, postRoute as post } from "../support/requests";
import { freshSession } from "../support/sign-in";

/**
 * Ordering an accepted quote: the wizard's Billing and Order steps with the quote's lines locked, charged exactly the
 * quoted total once however often (or from however many drafts) it is confirmed, the quote ordered in the order's
 * transaction, nothing charged when the fresh price differs or the quote may not be ordered, and the license carrying
 * the quote's number and PO number.
 */

const drain = () => new JobRunner(JOB_KINDS).drain();

async function newDistributor(label: string) {
  const account = await newCustomer(label);
  await db.update(organizations).set({ customerType: "distributor" }).where(eq(organizations.id, account.id));
  const member = await memberByEmail(account.user.email);
  return { ...account, ...member, cookie: await freshSession(account.user.email) };
}

type Distributor = Awaited<ReturnType<typeof newDistributor>>;

let reseller: Distributor;
let other: Distributor;
let harbor: string;
let colleagueCookie: string;
let viewerCookie: string;

const REVIEWED = {
  tier: "core" as const,
  users: 7,
  hosting: "on-premise" as const,
  completed: ["plan" as const, "hosting" as const, "hardware" as const, "support" as const],
};

/** An accepted quote of the distributor's for its end customer, with a PO number. */
async function acceptedQuote(): Promise<string> {
  const { wizard } = await subscriptionWizardFor(reseller, harbor);
  await wizard.save(reseller, { ...REVIEWED, organization: "Harbor Optics" });
  const made = await post(
    reviewAction,
    `/store/subscribe/review?customer=${harbor}`,
    { intent: "quote", validDays: "30" },
    reseller.cookie,
  );
  const quoteId = made.headers.get("Location")!.replace("/quotes/", "");
  const now = await portalNow();
  await db
    .update(quotes)
    .set({ status: "accepted", acceptedByName: "Pat Buyer", poNumber: "PO-4471", acceptedAt: now })
    .where(eq(quotes.id, quoteId));
  await db.insert(quoteEvents).values({
    quoteId,
    kind: "accepted",
    actorName: "Pat Buyer",
    at: now,
    detail: acceptanceDetail({ poNumber: "PO-4471", address: "198.51.100.7" }),
  });
  return quoteId;
}

const orderPath = (quoteId: string) => `/store/subscribe/order?customer=${quoteOrderQuery(quoteId)}`;

/** The member's draft of the quote's order with the card chosen (the Billing step done); the Order step's page. */
async function atOrder(quoteId: string, member: Distributor | TestCustomer = reseller, cookie = reseller.cookie) {
  const [card] = await getBilling().listPaymentSources(reseller.billingCustomerId);
  const { wizard } = await subscriptionWizardFor(member as Distributor, quoteOrderQuery(quoteId));
  await wizard.save(member as Distributor, { paymentSourceId: card.id, completed: ["billing"] });
  return open(orderLoader, orderPath(quoteId), cookie);
}

const purchase = (quoteId: string, orderKey: string, cookie = reseller.cookie, fields: Record<string, string> = {}) =>
  post(orderAction, `${orderPath(quoteId)}&confirm=1`, { intent: "purchase", orderKey, ...fields }, cookie);

/** The message of the toast a response sets. */
const toastOf = (response: Response) =>
  Buffer.from(/gk_toast=([^.;]+)/.exec(response.headers.get("Set-Cookie") ?? "")?.[1] ?? "", "base64").toString();

/** The PO number the order job a purchase queued goes with. */
async function orderedPoNumber(response: Response) {
  const jobId = response.headers.get("Location")!.replace("/store/orders/", "");
  const [job] = await db.select().from(jobs).where(eq(jobs.id, jobId));
  return job.input.poNumber;
}

const quoteRow = async (quoteId: string) => (await db.select().from(quotes).where(eq(quotes.id, quoteId)))[0];
const invoicesOf = () =>
  db.select().from(billingInvoices).where(eq(billingInvoices.customerId, reseller.billingCustomerId));

beforeAll(async () => {
  reseller = await newDistributor("quote-orders");
  other = await newDistributor("quote-orders-other");
  harbor = (
    await createCustomer(reseller, {
      name: "Harbor Optics",
      country: "GB",
      address: null,
      contactName: "",
      contactEmail: "",
    })
  ).id;
  await addCard(reseller as TestCustomer);
  const hash = reseller.user.passwordHash;
  const colleague = `billing-${reseller.id.slice(0, 8)}@example.com`;
  await createAccount(colleague, hash, { role: "billing_admin", organizationId: reseller.id });
  colleagueCookie = await freshSession(colleague);
  const viewer = `viewer-${reseller.id.slice(0, 8)}@example.com`;
  await createAccount(viewer, hash, { role: "viewer", organizationId: reseller.id });
  viewerCookie = await freshSession(viewer);
}, 60_000);

describe("placing the order of an accepted quote", { timeout: 120_000 }, () => {
  it("offers 'Place order' on the quote's page, at the Billing step of the quote's own locked draft", async () => {
    const quoteId = await acceptedQuote();
    const page = await (await open(quoteLoader, `/quotes/${quoteId}`, reseller.cookie, { quoteId })).json();
    expect(page.orderTo).toBe(`/store/subscribe/billing?customer=${quoteOrderQuery(quoteId)}`);
    // The maker's buying roles see where it was accepted from.
    expect(page.events.find((event: { kind: string }) => event.kind === "accepted").detail).toContain("198.51.100.7");
    expect((await open(billingLoader, page.orderTo, reseller.cookie)).status).toBe(200);
    // The steps that choose the order lead to Billing, and their forms change nothing.
    const plan = await open(planLoader, `/store/subscribe/plan?customer=${quoteOrderQuery(quoteId)}`, reseller.cookie);
    expect(plan.status).toBe(302);
    expect(plan.headers.get("Location")).toBe(page.orderTo);
    const posted = await post(
      planAction,
      `/store/subscribe/plan?customer=${quoteOrderQuery(quoteId)}`,
      { tier: "ultimate", users: "900", organization: "Someone Else" },
      reseller.cookie,
    );
    expect(posted.headers.get("Location")).toBe(page.orderTo);
  });

  it("charges exactly the quoted total once however often it is confirmed, the quote ordered with its job, the license carrying quote and PO", async () => {
    const quoteId = await acceptedQuote();
    const quote = await quoteRow(quoteId);
    const review = await (await atOrder(quoteId)).json();
    expect(review.problems).toEqual([]);
    expect(review.quote).toMatchObject({ number: quote.number, poNumber: "PO-4471" });
    expect(review.estimate.amountDue).toBe(quote.estimate.amountDue);
    const subscriptionsBefore = await subscriptionsOf(reseller.billingCustomerId);
    const invoicesBefore = (await invoicesOf()).length;
    // A double click, and two tabs posting at once.
    const [first, second, third] = await Promise.all([
      purchase(quoteId, review.orderKey),
      purchase(quoteId, review.orderKey),
      purchase(quoteId, review.orderKey, await freshSession(reseller.user.email)),
    ]);
    const location = first.headers.get("Location");
    expect(location).toMatch(/^\/store\/orders\//);
    expect([second, third].map((response) => response.headers.get("Location"))).toEqual([location, location]);
    await drain();
    // A refresh of the confirmation after the order ran.
    expect((await purchase(quoteId, review.orderKey)).headers.get("Location")).toBe(location);
    await drain();
    const jobId = location!.replace("/store/orders/", "");
    expect(await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.ownerId, reseller.id))).toHaveLength(1);
    expect(await subscriptionsOf(reseller.billingCustomerId)).toBe(subscriptionsBefore + 1);
    const invoices = await invoicesOf();
    expect(invoices).toHaveLength(invoicesBefore + 1);
    const invoice = invoices.at(-1)!;
    expect(invoice.amountPaid).toBe(quote.estimate.amountDue);
    expect(invoice.poNumber).toBe("PO-4471");
    expect(await quoteRow(quoteId)).toMatchObject({ status: "ordered", orderJobId: jobId });
    const events = await db.select().from(quoteEvents).where(eq(quoteEvents.quoteId, quoteId));
    expect(events.filter((event) => event.kind === "ordered")).toHaveLength(1);
    const logged = await db
      .select()
      .from(activity)
      .where(and(eq(activity.organizationId, reseller.id), eq(activity.action, "quote.ordered")));
    expect(logged.map((entry) => entry.summary)).toEqual([`Ordered quote ${quote.number} for Harbor Optics.`]);
    const [license] = await db
      .select()
      .from(licenses)
      .where(and(eq(licenses.ownerId, reseller.id), eq(licenses.quoteNumber, quote.number)));
    expect(license).toMatchObject({ licenseeId: harbor, nodes: 7, poNumber: "PO-4471", name: "Harbor Optics" });
    const listed = await (await open(licensesLoader, "/licenses", reseller.cookie)).json();
    expect(listed.licenses.find((row: { id: string }) => row.id === license.id)).toMatchObject({
      quoteNumber: quote.number,
      poNumber: "PO-4471",
    });
    // The quote's page leads to its order; its order steps lead back to the quote's page.
    const page = await (await open(quoteLoader, `/quotes/${quoteId}`, reseller.cookie, { quoteId })).json();
    expect(page).toMatchObject({ orderTo: null, orderJobTo: location });
    expect((await open(orderLoader, orderPath(quoteId), reseller.cookie)).headers.get("Location")).toBe(
      `/quotes/${quoteId}`,
    );
  });

  it("queues one job when two members confirm their own drafts of the quote at once", async () => {
    const quoteId = await acceptedQuote();
    const colleague = await memberByEmail(`billing-${reseller.id.slice(0, 8)}@example.com`);
    const mine = await (await atOrder(quoteId)).json();
    const theirs = await (await atOrder(quoteId, colleague as unknown as Distributor, colleagueCookie)).json();
    expect(mine.orderKey).not.toBe(theirs.orderKey);
    const subscriptionsBefore = await subscriptionsOf(reseller.billingCustomerId);
    const jobsBefore = (await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.ownerId, reseller.id))).length;
    const responses = await Promise.all([
      purchase(quoteId, mine.orderKey),
      purchase(quoteId, theirs.orderKey, colleagueCookie),
    ]);
    const locations = responses.map((response) => response.headers.get("Location") ?? "");
    expect(locations.filter((location) => location.startsWith("/store/orders/"))).toHaveLength(1);
    await drain();
    expect((await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.ownerId, reseller.id))).length).toBe(
      jobsBefore + 1,
    );
    expect(await subscriptionsOf(reseller.billingCustomerId)).toBe(subscriptionsBefore + 1);
    expect((await quoteRow(quoteId)).status).toBe("ordered");
    // The refused one says why.
    const refused = responses[locations.findIndex((location) => !location.startsWith("/store/orders/"))];
    expect(toastOf(refused)).toContain(QUOTE_ALREADY_ORDERED);
  });
});

describe("what a quote's order step leaves to the quote", { timeout: 120_000 }, () => {
  it("orders with the quote's PO number whatever is posted, and with a typed one only when the quote has none", async () => {
    const quoteId = await acceptedQuote();
    const review = await (await atOrder(quoteId)).json();
    expect(review.quote.poNumber).toBe("PO-4471");
    // A posted PO number is not read, not even one no order would take.
    const placed = await purchase(quoteId, review.orderKey, reseller.cookie, { po_number: "PO-FORGED".repeat(20) });
    expect(placed.headers.get("Location")).toMatch(/^\/store\/orders\//);
    expect(await orderedPoNumber(placed)).toBe("PO-4471");

    // Accepted without one, the quote's order takes the optional field of any order.
    const unnumbered = await acceptedQuote();
    await db.update(quotes).set({ poNumber: null }).where(eq(quotes.id, unnumbered));
    const open = await (await atOrder(unnumbered)).json();
    expect(open.quote.poNumber).toBeNull();
    const tooLong = await purchase(unnumbered, open.orderKey, reseller.cookie, { po_number: "X".repeat(101) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ poNumberError: PO_NUMBER_TOO_LONG });
    const typed = await purchase(unnumbered, open.orderKey, reseller.cookie, { po_number: " PO-TYPED-9 " });
    expect(await orderedPoNumber(typed)).toBe("PO-TYPED-9");
    await drain();
  });

  it("shows the steps that chose the order done but not linked, and links Billing back from the Order step", async () => {
    const quoteId = await acceptedQuote();
    const chromeAt = async (step: string) =>
      (
        await open(layoutLoader, `/store/subscribe/${step}?customer=${quoteOrderQuery(quoteId)}`, reseller.cookie)
      ).json();
    const chosen = ["plan", "hosting", "hardware", "support", "review"];
    expect(await chromeAt("billing")).toMatchObject({ current: "billing", reachable: [], settled: chosen });
    await atOrder(quoteId);
    expect(await chromeAt("order")).toMatchObject({ current: "order", reachable: ["billing"], settled: chosen });
  });

  it("takes no coupon: a coupon's post on a quote's order changes nothing and says why", async () => {
    const quoteId = await acceptedQuote();
    const before = await (await atOrder(quoteId)).json();
    for (const intent of ["apply-coupon", "remove-coupon"]) {
      const response = await post(orderAction, orderPath(quoteId), { intent, coupon: "SPRING25" }, reseller.cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(orderPath(quoteId));
      expect(toastOf(response)).toContain(QUOTE_KEEPS_ITS_COUPON);
    }
    const after = await (await open(orderLoader, orderPath(quoteId), reseller.cookie)).json();
    expect(after).toMatchObject({ couponId: before.couponId, orderKey: before.orderKey, problems: [] });
  });
});

describe("an order the quote does not cover", { timeout: 120_000 }, () => {
  it("charges nothing when the fresh price differs, says old and new amounts, and offers the copy", async () => {
    const quoteId = await acceptedQuote();
    const quote = await quoteRow(quoteId);
    // The price list moved since the quote was made: what it quoted is no longer today's price.
    const quoted = { ...quote.estimate, total: quote.estimate.total - 500, amountDue: quote.estimate.amountDue - 500 };
    await db.update(quotes).set({ estimate: quoted }).where(eq(quotes.id, quoteId));
    const review = await (await atOrder(quoteId)).json();
    expect(review.orderKey).toBeNull();
    const message = review.problems.map((problem: { message: string }) => problem.message).join(" ");
    expect(message).toContain("nothing was charged");
    expect(message).toMatch(/total due today was \$[\d,.]+ and is now \$[\d,.]+/);
    const before = await subscriptionsOf(reseller.billingCustomerId);
    const response = await purchase(quoteId, "new-subscription:forged:key");
    expect(response.headers.get("Location")).toBe(orderPath(quoteId));
    await drain();
    expect(await subscriptionsOf(reseller.billingCustomerId)).toBe(before);
    expect((await quoteRow(quoteId)).status).toBe("accepted");
  });

  it("is placed at the quoted price when the account's credit pays part of it: the card is charged the rest", async () => {
    const quoteId = await acceptedQuote();
    const quote = await quoteRow(quoteId);
    await db
      .update(billingCustomers)
      .set({ creditBalance: 300 })
      .where(eq(billingCustomers.id, reseller.billingCustomerId));
    const review = await (await atOrder(quoteId)).json();
    expect(review.problems).toEqual([]);
    expect(review.estimate).toMatchObject({
      total: quote.estimate.total,
      creditsApplied: 300,
      amountDue: quote.estimate.total - 300,
    });
    const placed = await purchase(quoteId, review.orderKey);
    expect(placed.headers.get("Location")).toMatch(/^\/store\/orders\//);
    await drain();
    expect((await invoicesOf()).at(-1)).toMatchObject({
      total: quote.estimate.total,
      amountPaid: quote.estimate.total - 300,
    });
    expect((await quoteRow(quoteId)).status).toBe("ordered");
  });

  it("refuses an expired, a withdrawn or a not yet accepted quote: its steps lead to its page", async () => {
    for (const change of [
      { validUntil: new Date((await portalNow()).getTime() - 1000) },
      { status: "withdrawn" as const },
      { status: "open" as const },
    ]) {
      const quoteId = await acceptedQuote();
      await db.update(quotes).set(change).where(eq(quotes.id, quoteId));
      const step = await open(
        billingLoader,
        `/store/subscribe/billing?customer=${quoteOrderQuery(quoteId)}`,
        reseller.cookie,
      );
      expect(step.headers.get("Location")).toBe(`/quotes/${quoteId}`);
      const page = await (await open(quoteLoader, `/quotes/${quoteId}`, reseller.cookie, { quoteId })).json();
      expect(page.orderTo).toBeNull();
      const before = await subscriptionsOf(reseller.billingCustomerId);
      const refused = await purchase(quoteId, "new-subscription:forged:key");
      expect(refused.status).toBe(302);
      await drain();
      expect(await subscriptionsOf(reseller.billingCustomerId)).toBe(before);
      expect((await quoteRow(quoteId)).status).toBe(change.status ?? "accepted");
    }
  });

  it("is 403 for a Viewer and 404 for another organization, and hides where it was accepted from the end customer", async () => {
    const quoteId = await acceptedQuote();
    const path = `/store/subscribe/billing?customer=${quoteOrderQuery(quoteId)}`;
    expect((await open(billingLoader, path, viewerCookie)).status).toBe(403);
    expect((await purchase(quoteId, "x", viewerCookie)).status).toBe(403);
    expect((await open(billingLoader, path, other.cookie)).status).toBe(404);
    expect((await purchase(quoteId, "x", other.cookie)).status).toBe(404);
    const contact = `contact-${harbor.slice(0, 8)}@example.com`;
    await createAccount(contact, reseller.user.passwordHash, { role: "technical_contact", organizationId: harbor });
    const page = await (await open(quoteLoader, `/quotes/${quoteId}`, await freshSession(contact), { quoteId })).json();
    expect(page.orderTo).toBeNull();
    const accepted = page.events.find((event: { kind: string }) => event.kind === "accepted");
    expect(accepted.detail).toContain("PO-4471");
    expect(accepted.detail).not.toContain("198.51.100.7");
  });
});
