import { createHash } from "node:crypto";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { CANNOT_BE_EMPTY, INVALID_EMAIL } from "~/domain/fields";
import { PO_NUMBER_TOO_LONG } from "~/domain/purchase-orders";
import { QUOTE_LINK_GONE, QUOTE_NOT_SENDABLE } from "~/domain/quotes";
import { loader as quoteLoader, action as quoteAction } from "~/routes/_portal.quotes.$quoteId._index";
import { action as reviewAction } from "~/routes/_portal.store.subscribe.review";
import { loader as linkLoader, action as linkAction } from "~/routes/quote.$token._index";
import { loader as linkPdfLoader } from "~/routes/quote.$token.pdf";
import { portalNow } from "~/server/billing/index.server";
import { outboxPage } from "~/server/mail/index.server";
import { subscriptionWizardFor } from "~/server/orders/new-subscription-wizard.server";
import { db } from "~/server/platform/database/db.server";
import { activity, oneTimeTokens, organizations, quoteEvents, quotes } from "~/server/platform/database/tables.server";
import { sendDueQuoteReminders } from "~/server/quotes/quote-reminders.server";
import { createCustomer } from "~/server/resellers/end-customers.server";
import { newCustomer } from "../support/accounts";
import { runJobs } from "../support/jobs";
import { createAccount, memberByEmail } from "../support/members";
import { formRequest, getRequest, openRoute as open, postRoute as post, respond } from "../support/requests";
import { freshSession } from "../support/sign-in";

/**
 * A quote's mailed link: 'Send' checks the address at its field, mails a link whose token is kept only hashed and
 * records the sending; /quote/:token opens the quote without an account (its first opening recorded once), offers
 * its PDF, and accepts it once with a name and PO number; an expired quote accepts nothing, a withdrawn one's link
 * opens nothing, and an unknown token is a 404 that says the same.
 */

const REVIEWED = {
  tier: "core" as const,
  users: 12,
  hosting: "cloud" as const,
  completed: ["plan" as const, "hosting" as const, "hardware" as const, "support" as const],
};

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

let owner: Awaited<ReturnType<typeof newCustomer>> & { cookie: string };
let viewerCookie: string;
let clients = 0;

/** A client of its own for each call, so that the link throttle of one test never counts another's. */
const clientContext = () => ({ clientAddress: `203.0.113.${(clients += 1) % 250}` });

type Route = (args: LoaderFunctionArgs) => unknown;

const openLink = (token: string, context = clientContext()) =>
  respond(async () => (linkLoader as Route)({ request: getRequest(`/quote/${token}`), params: { token }, context }));

const acceptLink = async (token: string, fields: Record<string, string>, context = clientContext()) =>
  respond(async () =>
    (linkAction as Route)({ request: await formRequest(`/quote/${token}`, fields), params: { token }, context }),
  );

async function makeQuote(): Promise<string> {
  const response = await post(
    reviewAction,
    "/store/subscribe/review",
    { intent: "quote", validDays: "30" },
    owner.cookie,
  );
  return response.headers.get("Location")!.replace("/quotes/", "");
}

const send = (quoteId: string, to: string, cookie = owner.cookie) =>
  post(quoteAction, `/quotes/${quoteId}`, { intent: "send", to }, cookie, { quoteId });

/** Sends the quote to the address and reads the token of the link mailed there. */
async function sendAndReadLink(quoteId: string, to: string): Promise<string> {
  expect((await send(quoteId, to)).status).toBe(302);
  await runJobs();
  const mail = (await outboxPage(1, 100)).messages.find((message) => message.to === to);
  const token = /\/quote\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
  if (!token) throw new Error(`No quote link mailed to ${to}`);
  return token;
}

const eventsOf = async (quoteId: string) =>
  db.select().from(quoteEvents).where(eq(quoteEvents.quoteId, quoteId)).orderBy(quoteEvents.id);

const quoteRow = async (quoteId: string) => (await db.select().from(quotes).where(eq(quotes.id, quoteId)))[0];

beforeAll(async () => {
  const account = await newCustomer("quote-links");
  owner = { ...account, cookie: await freshSession(account.user.email) };
  const viewerEmail = `viewer-${owner.id.slice(0, 8)}@example.com`;
  await createAccount(viewerEmail, owner.user.passwordHash, { role: "viewer", organizationId: owner.id });
  viewerCookie = await freshSession(viewerEmail);
  await subscriptionWizardFor(owner, null).then(({ wizard }) =>
    wizard.save(owner, { ...REVIEWED, organization: owner.organization.name }),
  );
}, 60_000);

describe("Send", { timeout: 60_000 }, () => {
  it("checks the address at its field, keeping what was typed, and sends nothing", async () => {
    const quoteId = await makeQuote();
    for (const [typed, message] of [
      ["", CANNOT_BE_EMPTY],
      ["not an address", INVALID_EMAIL],
    ]) {
      const response = await send(quoteId, typed);
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ fieldErrors: { to: message }, to: typed });
    }
    expect((await quoteRow(quoteId)).sentTo).toBeNull();
    expect((await send(quoteId, "buyer@example.com", viewerCookie)).status).toBe(403);
  });

  it("mails a link whose token is kept only hashed, valid until the quote, and records the sending", async () => {
    const quoteId = await makeQuote();
    const token = await sendAndReadLink(quoteId, "purchasing@buyer.example");
    const [stored] = await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.quoteId, quoteId));
    const quote = await quoteRow(quoteId);
    expect(stored).toMatchObject({ id: digest(token), purpose: "quote", expiresAt: quote.validUntil });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(quote.sentTo).toBe("purchasing@buyer.example");
    const sent = (await eventsOf(quoteId)).filter((event) => event.kind === "sent");
    expect(sent).toMatchObject([{ detail: "purchasing@buyer.example" }]);
    const mail = (await outboxPage(1, 100)).messages.find((message) => message.to === "purchasing@buyer.example");
    expect(mail?.subject).toBe(`Quote ${quote.number} from ${owner.organization.name}`);
    expect(mail?.text).toContain("without an account");
    const page = await (await open(quoteLoader, `/quotes/${quoteId}`, owner.cookie, { quoteId })).json();
    expect(page.quote.sentTo).toBe("purchasing@buyer.example");
    const log = await db.select().from(activity).where(eq(activity.organizationId, owner.id));
    expect(log.map((entry) => entry.action)).toContain("quote.sent");
  });

  it("offers an end customer's technical contact as the address", async () => {
    const reseller = await newCustomer("quote-links-reseller");
    await db.update(organizations).set({ customerType: "distributor" }).where(eq(organizations.id, reseller.id));
    const member = await memberByEmail(reseller.user.email);
    const customer = await createCustomer(member, {
      name: "Quayside Clinics",
      country: "GB",
      address: null,
      contactName: "Ada Quay",
      contactEmail: "it@quayside.example",
    });
    const { wizard } = await subscriptionWizardFor(member, customer.id);
    await wizard.save(member, { ...REVIEWED, organization: "Quayside Clinics" });
    const cookie = await freshSession(reseller.user.email);
    const made = await post(
      reviewAction,
      `/store/subscribe/review?customer=${customer.id}`,
      { intent: "quote", validDays: "30" },
      cookie,
    );
    const quoteId = made.headers.get("Location")!.replace("/quotes/", "");
    const page = await (await open(quoteLoader, `/quotes/${quoteId}`, cookie, { quoteId })).json();
    expect(page.sendTo).toBe("it@quayside.example");
  });
});

describe("the link's page", { timeout: 60_000 }, () => {
  it("opens the quote without an account, records the first opening once, and offers its PDF", async () => {
    const quoteId = await makeQuote();
    const token = await sendAndReadLink(quoteId, "reader@buyer.example");
    const first = await openLink(token);
    expect(first.status).toBe(200);
    const { quote } = await first.json();
    expect(quote).toMatchObject({ number: (await quoteRow(quoteId)).number, status: "open", closed: null });
    await openLink(token);
    expect((await eventsOf(quoteId)).map((event) => event.kind)).toEqual(["made", "sent", "opened"]);
    const pdf = await respond(async () =>
      (linkPdfLoader as Route)({
        request: getRequest(`/quote/${token}/pdf`),
        params: { token },
        context: clientContext(),
      }),
    );
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
  });

  it("is a 404 for an unknown token, saying the same as for a withdrawn quote's", async () => {
    const unknown = await openLink("not-a-token");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ pageScript: null, quote: null });

    const quoteId = await makeQuote();
    const token = await sendAndReadLink(quoteId, "withdrawn@buyer.example");
    expect(
      (await post(quoteAction, `/quotes/${quoteId}`, { intent: "withdraw" }, owner.cookie, { quoteId })).status,
    ).toBe(302);
    expect(await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.quoteId, quoteId))).toEqual([]);
    const withdrawn = await openLink(token);
    expect(withdrawn.status).toBe(404);
    expect(await withdrawn.json()).toEqual({ pageScript: null, quote: null });
    const refused = await acceptLink(token, { name: "Grace Buyer", poNumber: "" });
    expect(refused.status).toBe(404);
    expect((await refused.json()).formError).toBe(QUOTE_LINK_GONE);
    expect((await quoteRow(quoteId)).status).toBe("withdrawn");
    // Sending a withdrawn quote sends nothing.
    const again = await send(quoteId, "withdrawn@buyer.example");
    expect(again.status).toBe(409);
    expect((await again.json()).formError).toBe(QUOTE_NOT_SENDABLE);
  });

  it("pauses a client that tried too many links that open nothing", async () => {
    const context = { clientAddress: "192.0.2.77" };
    for (let tries = 0; tries < 100; tries += 1) expect((await openLink(`nothing-${tries}`, context)).status).toBe(404);
    const paused = await openLink("nothing-more", context);
    expect(paused.status).toBe(429);
    expect(paused.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

describe("Accept this quote", { timeout: 60_000 }, () => {
  it("checks the name and PO number at their fields, keeping what was typed", async () => {
    const quoteId = await makeQuote();
    const token = await sendAndReadLink(quoteId, "fields@buyer.example");
    const noName = await acceptLink(token, { name: " ", poNumber: "PO-1" });
    expect(noName.status).toBe(422);
    expect(await noName.json()).toEqual({
      fieldErrors: { name: CANNOT_BE_EMPTY },
      typed: { name: " ", poNumber: "PO-1" },
    });
    const longPo = await acceptLink(token, { name: "Grace Buyer", poNumber: "P".repeat(101) });
    expect(longPo.status).toBe(422);
    expect((await longPo.json()).fieldErrors).toEqual({ poNumber: PO_NUMBER_TOO_LONG });
    expect((await quoteRow(quoteId)).status).toBe("open");
  });

  it("accepts once with the name, PO number, time and address, logs it and mails the maker; a second post accepts nothing", async () => {
    const quoteId = await makeQuote();
    const token = await sendAndReadLink(quoteId, "accepts@buyer.example");
    const context = { clientAddress: "198.51.100.42" };
    const [one, two] = await Promise.all([
      acceptLink(token, { name: "Grace Buyer", poNumber: "PO-4711" }, context),
      acceptLink(token, { name: "Other Tab", poNumber: "" }, context),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const quote = await quoteRow(quoteId);
    expect(quote).toMatchObject({ status: "accepted", acceptedFrom: "198.51.100.42" });
    expect(Math.abs(quote.acceptedAt!.getTime() - (await portalNow()).getTime())).toBeLessThan(60_000);
    const accepted = (await eventsOf(quoteId)).filter((event) => event.kind === "accepted");
    expect(accepted).toHaveLength(1);
    expect(accepted[0].actorName).toBe(quote.acceptedByName);

    const third = await acceptLink(token, { name: "Late Comer", poNumber: "" });
    expect(third.status).toBe(409);
    expect((await third.json()).formError).toMatch(/^This quote has already been accepted by “/);
    expect((await eventsOf(quoteId)).filter((event) => event.kind === "accepted")).toHaveLength(1);

    const page = await (await openLink(token)).json();
    expect(page.quote).toMatchObject({ status: "accepted" });
    expect(page.quote.closed).toMatch(/^This quote has already been accepted/);

    const log = await db
      .select()
      .from(activity)
      .where(and(eq(activity.organizationId, owner.id), eq(activity.action, "quote.accepted")));
    expect(log.map((entry) => entry.summary)).toEqual([
      expect.stringContaining(`Quote ${quote.number} for ${quote.organizationName} was accepted`),
    ]);
    await runJobs();
    const mails = (await outboxPage(1, 100)).messages.filter(
      (message) => message.subject === `Quote ${quote.number} was accepted`,
    );
    expect(mails.map((mail) => mail.to)).toEqual([owner.user.email]);
    expect(mails[0].text).toContain(`the name “${quote.acceptedByName}”`);
  });

  it("records the PO number with the acceptance", async () => {
    const quoteId = await makeQuote();
    const token = await sendAndReadLink(quoteId, "po@buyer.example");
    const response = await acceptLink(
      token,
      { name: "Grace Buyer", poNumber: " PO-2026-17 " },
      { clientAddress: "198.51.100.9" },
    );
    expect(response.status).toBe(200);
    expect(await quoteRow(quoteId)).toMatchObject({ acceptedByName: "Grace Buyer", poNumber: "PO-2026-17" });
    const [event] = (await eventsOf(quoteId)).filter((row) => row.kind === "accepted");
    expect(event).toMatchObject({ actorName: "Grace Buyer", detail: "PO number “PO-2026-17”, from 198.51.100.9" });
    const page = await (await open(quoteLoader, `/quotes/${quoteId}`, viewerCookie, { quoteId })).json();
    expect(page.quote).toMatchObject({ status: "accepted", acceptedByName: "Grace Buyer", poNumber: "PO-2026-17" });
  });

  it("refuses an expired quote, saying so, and accepts nothing", async () => {
    const quoteId = await makeQuote();
    const token = await sendAndReadLink(quoteId, "late@buyer.example");
    await db
      .update(quotes)
      .set({ validUntil: new Date((await portalNow()).getTime() - 1_000) })
      .where(eq(quotes.id, quoteId));
    const page = await (await openLink(token)).json();
    expect(page.quote.status).toBe("expired");
    expect(page.quote.closed).toMatch(/^This quote expired on /);
    const refused = await acceptLink(token, { name: "Grace Buyer", poNumber: "" });
    expect(refused.status).toBe(409);
    expect((await refused.json()).formError).toMatch(/^This quote expired on /);
    expect((await quoteRow(quoteId)).status).toBe("open");
    expect((await eventsOf(quoteId)).map((event) => event.kind)).not.toContain("accepted");
  });
});

describe("the reminder before a sent quote expires", { timeout: 60_000 }, () => {
  it("mails the maker once, 7 days before an open, sent quote expires, and not for an unsent or later one", async () => {
    const now = await portalNow();
    const inDays = (days: number) => new Date(now.getTime() + days * 24 * 60 * 60 * 1000);
    const [soon, unsent, later] = [await makeQuote(), await makeQuote(), await makeQuote()];
    await sendAndReadLink(soon, "soon@buyer.example");
    await sendAndReadLink(later, "later@buyer.example");
    await db
      .update(quotes)
      .set({ validUntil: inDays(6) })
      .where(eq(quotes.id, soon));
    await db
      .update(quotes)
      .set({ validUntil: inDays(6) })
      .where(eq(quotes.id, unsent));
    await db
      .update(quotes)
      .set({ validUntil: inDays(8) })
      .where(eq(quotes.id, later));
    await sendDueQuoteReminders(now);
    await sendDueQuoteReminders(now);
    await runJobs();
    const quote = await quoteRow(soon);
    const mails = (await outboxPage(1, 100)).messages.filter((message) =>
      message.subject.startsWith(`Quote ${quote.number} expires on `),
    );
    expect(mails.map((mail) => mail.to)).toEqual([owner.user.email]);
    expect(mails[0].text).toContain("sent to soon@buyer.example, has not been accepted yet");
    expect(quote.remindedAt).not.toBeNull();
    expect((await quoteRow(unsent)).remindedAt).toBeNull();
    expect((await quoteRow(later)).remindedAt).toBeNull();
  });
});
