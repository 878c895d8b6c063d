import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POLICY } from "~/domain/access-policy";
import { CANNOT_BE_EMPTY } from "~/domain/fields";
import { quotedName } from "~/domain/names";
import { notAcceptableInPortal } from "~/domain/quotes";
import { loader as quoteLoader, action as quoteAction } from "~/routes/_portal.quotes.$quoteId._index";
import { action as reviewAction } from "~/routes/_portal.store.subscribe.review";
import { portalNow } from "~/server/billing/index.server";
import { outboxPage } from "~/server/mail/index.server";
import { subscriptionWizardFor } from "~/server/orders/new-subscription-wizard.server";
import { db } from "~/server/platform/database/db.server";
import { activity, organizations, quoteEvents, quotes } from "~/server/platform/database/tables.server";
import { createCustomer } from "~/server/resellers/end-customers.server";
import { newCustomer } from "../support/accounts";
import { runJobs } from "../support/jobs";
import { createAccount, memberByEmail } from "../support/members";
import { openRoute as open, postRoute as post } from "../support/requests";
import { freshSession } from "../support/sign-in";

/**
 * Accepting a quote in the portal: a distributor's quote for its end customer lets that customer's Technical
 * contacts accept it on its page when the distributor chose so (on the Review step or when sending), with the same
 * name and PO number as the mailed link and the same record (history, the distributor's log, the maker's mail);
 * the access policy's row and the quote's choice are the server's checks, and a quote no longer open accepts
 * nothing.
 */

const REVIEWED = {
  tier: "core" as const,
  users: 12,
  hosting: "cloud" as const,
  completed: ["plan" as const, "hosting" as const, "hardware" as const, "support" as const],
  organization: "Harbor Lenses",
};

let reseller: Awaited<ReturnType<typeof newCustomer>> & { cookie: string };
let resellerTechnical: string;
let customerId: string;
let contact: string;
let customerViewer: string;

/** Makes the distributor's quote for its end customer on the Review step, letting it accept in the portal or not. */
async function makeQuote(customerMayAccept: boolean): Promise<string> {
  const response = await post(
    reviewAction,
    `/store/subscribe/review?customer=${customerId}`,
    { intent: "quote", validDays: "30", ...(customerMayAccept ? { customerMayAccept: "on" } : {}) },
    reseller.cookie,
  );
  expect(response.status).toBe(302);
  return response.headers.get("Location")!.replace("/quotes/", "");
}

const pageOf = async (quoteId: string, cookie: string) =>
  (await open(quoteLoader, `/quotes/${quoteId}`, cookie, { quoteId })).json();

const accept = (quoteId: string, cookie: string, fields: Record<string, string> = { name: "Dana Reyes" }) =>
  post(quoteAction, `/quotes/${quoteId}`, { intent: "accept", ...fields }, cookie, { quoteId });

const quoteRow = async (quoteId: string) => (await db.select().from(quotes).where(eq(quotes.id, quoteId)))[0];

beforeAll(async () => {
  const account = await newCustomer("quote-acceptance");
  reseller = { ...account, cookie: await freshSession(account.user.email) };
  await db.update(organizations).set({ customerType: "distributor" }).where(eq(organizations.id, reseller.id));
  const member = await memberByEmail(reseller.user.email);
  const customer = await createCustomer(member, {
    name: "Harbor Lenses",
    country: "GB",
    address: null,
    contactName: "",
    contactEmail: "",
  });
  customerId = customer.id;
  const { wizard } = await subscriptionWizardFor(member, customer.id);
  await wizard.save(member, REVIEWED);
  const suffix = reseller.id.slice(0, 8);
  const hash = reseller.user.passwordHash;
  const people = [
    [`contact-${suffix}@harbor-lenses.example`, "technical_contact", customer.id],
    [`viewer-${suffix}@harbor-lenses.example`, "viewer", customer.id],
    [`technical-${suffix}@reseller.example`, "technical_contact", reseller.id],
  ] as const;
  for (const [email, role, organizationId] of people) await createAccount(email, hash, { role, organizationId });
  [contact, customerViewer, resellerTechnical] = await Promise.all(people.map(([email]) => freshSession(email)));
}, 60_000);

describe("accepting a quote in the portal", { timeout: 60_000 }, () => {
  it("is the end customer's Technical contact's where allowed, recorded as through the link", async () => {
    const quoteId = await makeQuote(true);
    expect(await quoteRow(quoteId)).toMatchObject({ customerId, customerMayAccept: true });
    const page = await pageOf(quoteId, contact);
    expect(page).toMatchObject({
      quote: { customerMayAccept: true },
      acceptAs: "Test contact-" + reseller.id.slice(0, 8),
    });
    expect((await pageOf(quoteId, customerViewer)).acceptAs).toBeNull();
    expect((await pageOf(quoteId, reseller.cookie)).acceptAs).toBeNull();

    // The name is checked at its field, what was typed coming back.
    const empty = await accept(quoteId, contact, { name: " ", poNumber: "PO-1" });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ fieldErrors: { name: CANNOT_BE_EMPTY }, typed: { poNumber: "PO-1" } });

    const done = await accept(quoteId, contact, { name: "Dana Reyes", poNumber: "PO-4410" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/quotes/${quoteId}`);
    const quote = await quoteRow(quoteId);
    expect(quote).toMatchObject({ status: "accepted", acceptedByName: "Dana Reyes", poNumber: "PO-4410" });
    const events = await db.select().from(quoteEvents).where(eq(quoteEvents.quoteId, quoteId));
    expect(events.map((event) => [event.kind, event.actorName])).toEqual([
      ["made", expect.any(String)],
      ["accepted", "Dana Reyes"],
    ]);
    const [logged] = await db
      .select()
      .from(activity)
      .where(and(eq(activity.organizationId, reseller.id), eq(activity.action, "quote.accepted")));
    expect(logged.summary).toBe(
      `Quote ${quote.number} for Harbor Lenses was accepted in the portal by ${quotedName("Dana Reyes")} with PO number ${quotedName("PO-4410")}.`,
    );
    await runJobs();
    const mail = (await outboxPage(1, 100)).messages.find(
      (message) => message.subject === `Quote ${quote.number} was accepted`,
    );
    expect(mail?.to).toBe(reseller.user.email);
    expect(mail?.text).toContain("was accepted in the portal on");

    // A second post (another tab) accepts nothing.
    const again = await accept(quoteId, contact);
    expect(again.status).toBe(409);
    expect((await again.json()).formError).toContain(
      `This quote has already been accepted by ${quotedName("Dana Reyes")}`,
    );
    expect((await pageOf(quoteId, contact)).acceptAs).toBeNull();
  });

  it("is refused, on the server, to the end customer's Viewer and to anyone but an end customer", async () => {
    const quoteId = await makeQuote(true);
    const viewer = await accept(quoteId, customerViewer);
    expect(viewer.status).toBe(403);
    expect((await viewer.json()).message).toBe(
      "Your role in Harbor Lenses is Viewer, which cannot accept quotes. Ask a Technical contact of Harbor Lenses.",
    );
    for (const cookie of [reseller.cookie, resellerTechnical]) {
      const refused = await accept(quoteId, cookie);
      expect(refused.status).toBe(403);
      expect((await refused.json()).message).toBe(POLICY["quotes.accept"].onlyFor);
    }
    expect((await quoteRow(quoteId)).status).toBe("open");
  });

  it("waits for the distributor's choice: not made so, then chosen when it is sent", async () => {
    const quoteId = await makeQuote(false);
    expect((await pageOf(quoteId, reseller.cookie)).quote.customerMayAccept).toBe(false);
    expect((await pageOf(quoteId, contact)).acceptAs).toBeNull();
    const refused = await accept(quoteId, contact);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(notAcceptableInPortal(reseller.organization.name));

    const sent = await post(
      quoteAction,
      `/quotes/${quoteId}`,
      { intent: "send", to: "buyer@harbor-lenses.example", customerMayAccept: "on" },
      reseller.cookie,
      { quoteId },
    );
    expect(sent.status).toBe(302);
    expect((await quoteRow(quoteId)).customerMayAccept).toBe(true);
    expect((await accept(quoteId, contact)).status).toBe(302);
  });

  it("accepts neither a withdrawn nor an expired quote", async () => {
    const withdrawn = await makeQuote(true);
    const path = `/quotes/${withdrawn}`;
    expect(
      (await post(quoteAction, path, { intent: "withdraw" }, reseller.cookie, { quoteId: withdrawn })).status,
    ).toBe(302);
    const refusedWithdrawn = await accept(withdrawn, contact);
    expect(refusedWithdrawn.status).toBe(409);
    expect((await refusedWithdrawn.json()).formError).toBe("This quote was withdrawn and can no longer be accepted.");

    const expired = await makeQuote(true);
    await db
      .update(quotes)
      .set({ validUntil: new Date((await portalNow()).getTime() - 1000) })
      .where(eq(quotes.id, expired));
    expect((await pageOf(expired, contact)).acceptAs).toBeNull();
    const refusedExpired = await accept(expired, contact);
    expect(refusedExpired.status).toBe(409);
    expect((await refusedExpired.json()).formError).toMatch(
      /^This quote expired on .* and can no longer be accepted\.$/,
    );
    expect((await quoteRow(expired)).status).toBe("open");
  });
});
