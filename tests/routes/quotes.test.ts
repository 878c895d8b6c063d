import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { estimateView } from "~/domain/estimate";
import { formatCents } from "~/domain/format";
import { NOT_AN_INVOICE, QUOTE_FOR_NEW_CUSTOMER, QUOTE_VALIDITY_MESSAGE } from "~/domain/quotes";
import { NEW_CUSTOMER, NEW_QUOTE_PLAN_URL } from "~/domain/subscription-steps";
import { loader as listLoader } from "~/routes/_portal.quotes._index";
import { loader as quoteLoader, action as quoteAction } from "~/routes/_portal.quotes.$quoteId._index";
import { loader as pdfLoader } from "~/routes/_portal.quotes.$quoteId.pdf";
import { loader as planLoader, action as planAction } from "~/routes/_portal.store.subscribe.plan";
import { action as reviewAction } from "~/routes/_portal.store.subscribe.review";
import { portalNow } from "~/server/billing/index.server";
import { estimateDraft, subscriptionWizardFor } from "~/server/orders/new-subscription-wizard.server";
import { db } from "~/server/platform/database/db.server";
import { activity, organizations, quoteCounters, quotes } from "~/server/platform/database/tables.server";
import { nextQuoteNumber } from "~/server/quotes/quotes.server";
import { createCustomer } from "~/server/resellers/end-customers.server";
import { newCustomer } from "../support/accounts";
import { createAccount, memberByEmail } from "../support/members";
import { pdfText } from "../support/pdf-text";
import { openRoute as open, postRoute as post } from "../support/requests";
import { freshSession } from "../support/sign-in";

/**
 * Quotes: the Review step's 'Save as quote' makes a numbered quote whose lines are the billing port's estimate of
 * the draft, valid the days asked on the portal's clock; /quotes pages and filters them; a quote's page withdraws
 * and copies it (re-priced, a new number); its PDF reads its lines; a Viewer makes none, and another
 * organization's quote is a 404.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The Store wizard's draft of a customer's order, its steps before Review done. */
const REVIEWED = {
  tier: "core" as const,
  users: 12,
  hosting: "cloud" as const,
  completed: ["plan" as const, "hosting" as const, "hardware" as const, "support" as const],
};

async function person(label: string) {
  const account = await newCustomer(label);
  return { ...account, cookie: await freshSession(account.user.email) };
}

type Person = Awaited<ReturnType<typeof person>>;

/** Posts 'Save as quote' on the Review step (of `?customer=` when given); the response. */
const saveAsQuote = (who: { cookie: string }, fields: Record<string, string> = {}, customer?: string) =>
  post(
    reviewAction,
    `/store/subscribe/review${customer ? `?customer=${customer}` : ""}`,
    { intent: "quote", validDays: "30", ...fields },
    who.cookie,
  );

const quoteIdOf = (response: Response) => response.headers.get("Location")?.replace("/quotes/", "") ?? "";

let owner: Person;
let viewerCookie: string;
let stranger: Person;

beforeAll(async () => {
  owner = await person("quoting");
  stranger = await person("stranger");
  const viewerEmail = `viewer-${owner.id.slice(0, 8)}@example.com`;
  await createAccount(viewerEmail, owner.user.passwordHash, { role: "viewer", organizationId: owner.id });
  viewerCookie = await freshSession(viewerEmail);
  await subscriptionWizardFor(owner, null).then(({ wizard }) =>
    wizard.save(owner, { ...REVIEWED, organization: owner.organization.name }),
  );
}, 60_000);

describe("quote numbers", { timeout: 60_000 }, () => {
  it("are distinct and consecutive for makers at once, Q-<year>-0001 onwards", async () => {
    const year = 2190;
    const numbers = await Promise.all(
      Array.from({ length: 8 }, () => db.transaction((tx) => nextQuoteNumber(tx, year))),
    );
    expect([...numbers].sort()).toEqual(
      Array.from({ length: 8 }, (_, index) => `Q-${year}-${String(index + 1).padStart(4, "0")}`),
    );
    const [counter] = await db.select().from(quoteCounters).where(eq(quoteCounters.year, year));
    expect(counter.last).toBe(8);
  });

  it("give a rolled-back maker's number to the next one", async () => {
    const year = 2191;
    await expect(
      db.transaction(async (tx) => {
        await nextQuoteNumber(tx, year);
        throw new Error("the quote could not be written");
      }),
    ).rejects.toThrow();
    expect(await db.transaction((tx) => nextQuoteNumber(tx, year))).toBe(`Q-${year}-0001`);
  });
});

describe("Save as quote on the Review step", { timeout: 60_000 }, () => {
  it("makes an open quote whose lines are the estimate of the draft, valid the days asked", async () => {
    const response = await saveAsQuote(owner, { validDays: "14" });
    expect(response.status).toBe(302);
    const [quote] = await db
      .select()
      .from(quotes)
      .where(eq(quotes.id, quoteIdOf(response)));
    const { data } = await (await subscriptionWizardFor(owner, null)).wizard.read(owner);
    const { nextBilling, ...lines } = estimateView(
      await estimateDraft(owner.organization, data, { withCoupon: false }),
    );
    expect(quote).toMatchObject({
      ownerId: owner.id,
      customerId: null,
      organizationName: owner.organization.name,
      status: "open",
      // Priced again here, a second boundary may lie between: the next cycle's date is its own.
      estimate: { ...lines, nextBilling: nextBilling && { amount: nextBilling.amount, at: expect.any(String) } },
    });
    expect(quote.number).toMatch(/^Q-\d{4}-\d{4,}$/);
    expect(quote.validUntil.getTime() - quote.quotedAt.getTime()).toBe(14 * DAY_MS);
    expect(Math.abs(quote.quotedAt.getTime() - (await portalNow()).getTime())).toBeLessThan(60_000);
    const entries = await db.select().from(activity).where(eq(activity.organizationId, owner.id));
    expect(entries.map((entry) => entry.summary)).toContain(
      `Made quote ${quote.number} for ${owner.organization.name}.`,
    );
  });

  it("refuses a validity outside 1 to 90 days at the field, keeping what was typed, making nothing", async () => {
    const before = await db.select({ id: quotes.id }).from(quotes).where(eq(quotes.ownerId, owner.id));
    for (const validDays of ["0", "91", "two"]) {
      const response = await saveAsQuote(owner, { validDays });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ fieldErrors: { validDays: QUOTE_VALIDITY_MESSAGE }, validDays });
    }
    const after = await db.select({ id: quotes.id }).from(quotes).where(eq(quotes.ownerId, owner.id));
    expect(after).toHaveLength(before.length);
  });

  it("is refused to a Viewer", async () => {
    const response = await saveAsQuote({ cookie: viewerCookie });
    expect(response.status).toBe(403);
  });

  it("quotes a distributor's end customer by the customer's name", async () => {
    const reseller = await person("quoting-reseller");
    await db.update(organizations).set({ customerType: "distributor" }).where(eq(organizations.id, reseller.id));
    const member = await memberByEmail(reseller.user.email);
    const customer = await createCustomer(member, {
      name: "Harbor Optics",
      country: "GB",
      address: null,
      contactName: "",
      contactEmail: "",
    });
    const { wizard } = await subscriptionWizardFor(member, customer.id);
    await wizard.save(member, { ...REVIEWED, organization: "Harbor Optics" });
    const response = await saveAsQuote(reseller, {}, customer.id);
    expect(response.status).toBe(302);
    const [quote] = await db
      .select()
      .from(quotes)
      .where(eq(quotes.id, quoteIdOf(response)));
    expect(quote).toMatchObject({ ownerId: reseller.id, customerId: customer.id, organizationName: "Harbor Optics" });
    // At the distributor's prices.
    expect(quote.estimate.lineItems.length).toBeGreaterThan(0);
    const list = await (await open(listLoader, `/quotes?customer=${customer.id}`, reseller.cookie)).json();
    expect(list.quotes.map((row: { id: string }) => row.id)).toEqual([quote.id]);
    expect(list.customers.map((choice: { name: string }) => choice.name)).toEqual(["Harbor Optics"]);

    // The end customer's own people read it, and change nothing.
    const contactEmail = `contact-${customer.id.slice(0, 8)}@harbor.example`;
    await createAccount(contactEmail, reseller.user.passwordHash, {
      role: "technical_contact",
      organizationId: customer.id,
    });
    const contact = await freshSession(contactEmail);
    const theirs = await (await open(listLoader, "/quotes", contact)).json();
    expect(theirs.quotes.map((row: { id: string }) => row.id)).toEqual([quote.id]);
    const page = await (await open(quoteLoader, `/quotes/${quote.id}`, contact, { quoteId: quote.id })).json();
    expect(page).toMatchObject({ quote: { makerOrganization: reseller.organization.name }, mayWithdraw: false });
    const refused = await post(quoteAction, `/quotes/${quote.id}`, { intent: "withdraw" }, contact, {
      quoteId: quote.id,
    });
    expect(refused.status).toBe(403);
  });
});

describe("'Make a quote' for the organization's own license", { timeout: 60_000 }, () => {
  it("asks no organization name: the quote is for the organization, whatever name is posted", async () => {
    const own = await person("own-quote");
    const { name } = own.organization;
    const asked = await (await open(planLoader, NEW_QUOTE_PLAN_URL, own.cookie)).json();
    expect(asked).toMatchObject({ quoteFor: name, defaults: { organization: name } });
    // The plan step of an order still asks for it.
    expect(await (await open(planLoader, "/store/subscribe/plan", own.cookie)).json()).toMatchObject({
      quoteFor: null,
    });
    const posts: Record<string, string>[] = [{ organization: "Someone Else Ltd" }, {}];
    for (const fields of posts) {
      const posted = await post(planAction, NEW_QUOTE_PLAN_URL, { tier: "core", users: "5", ...fields }, own.cookie);
      expect(posted.headers.get("Location")).toBe("/store/subscribe/hosting");
      const { wizard } = await subscriptionWizardFor(own, null);
      expect((await wizard.read(own)).data).toMatchObject({ organization: name, users: 5 });
    }
    // A cycle switch stays in the quote's plan step.
    const switched = await post(planAction, NEW_QUOTE_PLAN_URL, { intent: "cycle-yearly" }, own.cookie);
    expect(switched.headers.get("Location")).toBe(NEW_QUOTE_PLAN_URL);

    const { wizard } = await subscriptionWizardFor(own, null);
    await wizard.save(own, { completed: REVIEWED.completed });
    const [quote] = await db
      .select()
      .from(quotes)
      .where(eq(quotes.id, quoteIdOf(await saveAsQuote(own))));
    expect(quote).toMatchObject({ organizationName: name, order: { organization: name, users: 5 } });
  });
});

describe("Save as quote after the ordinary plan step", { timeout: 60_000 }, () => {
  it("names an organization's own quote after the organization, whatever name the plan step was given", async () => {
    const own = await person("typed-name-quote");
    const posted = await post(
      planAction,
      "/store/subscribe/plan",
      { tier: "core", users: "7", organization: "Someone Else Ltd" },
      own.cookie,
    );
    expect(posted.headers.get("Location")).toBe("/store/subscribe/hosting");
    const { wizard } = await subscriptionWizardFor(own, null);
    // The order's draft keeps what was typed: an order's license may be named so.
    expect((await wizard.read(own)).data).toMatchObject({ organization: "Someone Else Ltd" });
    await wizard.save(own, { completed: REVIEWED.completed });
    const [quote] = await db
      .select()
      .from(quotes)
      .where(eq(quotes.id, quoteIdOf(await saveAsQuote(own))));
    const { name } = own.organization;
    expect(quote).toMatchObject({ organizationName: name, order: { organization: name, users: 7 } });
  });
});

describe("'Make a quote' for a distributor", { timeout: 60_000 }, () => {
  it("offers only customers already added: 'A new customer' is refused at the field, and stays an order's choice", async () => {
    const reseller = await person("quoting-distributor");
    await db.update(organizations).set({ customerType: "distributor" }).where(eq(organizations.id, reseller.id));
    const asked = await (await open(planLoader, NEW_QUOTE_PLAN_URL, reseller.cookie)).json();
    expect(asked).toMatchObject({ offersNewCustomer: false, quoteFor: null });
    const ordering = await (await open(planLoader, "/store/subscribe/plan", reseller.cookie)).json();
    expect(ordering).toMatchObject({ offersNewCustomer: true });

    const fields = { customer: NEW_CUSTOMER, organization: "Brand New Ltd", tier: "core", users: "6" };
    const refused = await post(planAction, NEW_QUOTE_PLAN_URL, fields, reseller.cookie);
    expect(refused.status).toBe(422);
    const body = await refused.json();
    expect(body.fieldErrors).toEqual({ customer: QUOTE_FOR_NEW_CUSTOMER });
    expect(body.repopulateFields).toMatchObject({ organization: "Brand New Ltd", users: "6" });
    const ordered = await post(planAction, "/store/subscribe/plan", fields, reseller.cookie);
    expect(ordered.headers.get("Location")).toBe(`/store/subscribe/hosting?customer=${NEW_CUSTOMER}`);
  });
});

describe("a quote's pages", { timeout: 60_000 }, () => {
  let quoteId: string;

  beforeAll(async () => {
    quoteId = quoteIdOf(await saveAsQuote(owner));
  });

  it("shows the quote with its history to every member, and only its own organization's", async () => {
    const page = await (await open(quoteLoader, `/quotes/${quoteId}`, viewerCookie, { quoteId })).json();
    expect(page.quote).toMatchObject({ id: quoteId, status: "open" });
    expect(page.events.map((event: { kind: string }) => event.kind)).toEqual(["made"]);
    expect(page).toMatchObject({ mayWithdraw: false, mayCopy: false });
    const owners = await (await open(quoteLoader, `/quotes/${quoteId}`, owner.cookie, { quoteId })).json();
    expect(owners).toMatchObject({ mayWithdraw: true, mayCopy: true });
    expect((await open(quoteLoader, `/quotes/${quoteId}`, stranger.cookie, { quoteId })).status).toBe(404);
    expect((await open(pdfLoader, `/quotes/${quoteId}/pdf`, stranger.cookie, { quoteId })).status).toBe(404);
  });

  it("lists the quotes newest first, filtered by status", async () => {
    const list = await (await open(listLoader, "/quotes", viewerCookie)).json();
    const [stored] = await db.select().from(quotes).where(eq(quotes.id, quoteId));
    // The portal's clock counts whole seconds: quotes made in one second follow each other by id.
    const newestFirst = await db
      .select({ id: quotes.id })
      .from(quotes)
      .where(eq(quotes.ownerId, stored.ownerId))
      .orderBy(desc(quotes.quotedAt), desc(quotes.id));
    const ids = list.quotes.map((row: { id: string }) => row.id);
    expect(ids).toEqual(newestFirst.map((row) => row.id).slice(0, ids.length));
    expect(ids.length).toBeGreaterThanOrEqual(2);
    // The quote made last leads, or one made in its second.
    const [first] = await db.select({ quotedAt: quotes.quotedAt }).from(quotes).where(eq(quotes.id, ids[0]));
    expect(first.quotedAt.getTime()).toBe(stored.quotedAt.getTime());
    const listed = list.quotes.find((row: { id: string }) => row.id === quoteId);
    expect(listed).toMatchObject({ id: quoteId, status: "open", amountDue: stored.estimate.amountDue });
    const withdrawn = await (await open(listLoader, "/quotes?status=withdrawn", viewerCookie)).json();
    expect(withdrawn.quotes.map((row: { id: string }) => row.id)).not.toContain(quoteId);
  });

  it("prints the lines, the totals, the validity and that it is not an invoice", async () => {
    const response = await open(pdfLoader, `/quotes/${quoteId}/pdf`, viewerCookie, { quoteId });
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
    const [quote] = await db.select().from(quotes).where(eq(quotes.id, quoteId));
    expect(text).toContain(quote.number);
    for (const line of quote.estimate.lineItems) expect(text).toContain(line.description);
    expect(text).toMatch(new RegExp(`Total amount due today\\s+\\${formatCents(quote.estimate.amountDue)}`));
    expect(text).toContain(NOT_AN_INVOICE);
  });

  it("copies into a new quote with a new number, the original unchanged", async () => {
    const response = await post(quoteAction, `/quotes/${quoteId}`, { intent: "copy" }, owner.cookie, { quoteId });
    expect(response.status).toBe(302);
    const copyId = quoteIdOf(response);
    const [original, copy] = await Promise.all(
      [quoteId, copyId].map(async (id) => (await db.select().from(quotes).where(eq(quotes.id, id)))[0]),
    );
    expect(copy.id).not.toBe(original.id);
    expect(copy.number).not.toBe(original.number);
    // Priced again now: the same lines and amounts, the next cycle dated from the copy's own moment.
    const { nextBilling, ...lines } = original.estimate;
    expect(copy).toMatchObject({
      order: original.order,
      estimate: { ...lines, nextBilling: nextBilling && { amount: nextBilling.amount, at: expect.any(String) } },
      status: "open",
    });
    expect(original.status).toBe("open");
  });

  it("withdraws an open quote once; a Viewer may not", async () => {
    const path = `/quotes/${quoteId}`;
    expect((await post(quoteAction, path, { intent: "withdraw" }, viewerCookie, { quoteId })).status).toBe(403);
    expect((await post(quoteAction, path, { intent: "withdraw" }, stranger.cookie, { quoteId })).status).toBe(404);
    const done = await post(quoteAction, path, { intent: "withdraw" }, owner.cookie, { quoteId });
    expect(done.status).toBe(302);
    const again = await post(quoteAction, path, { intent: "withdraw" }, owner.cookie, { quoteId });
    expect(again.status).toBe(409);
    const page = await (await open(quoteLoader, path, owner.cookie, { quoteId })).json();
    expect(page.quote.status).toBe("withdrawn");
    expect(page.events.map((event: { kind: string }) => event.kind)).toEqual(["made", "withdrawn"]);
  });

  it("is expired, and no longer withdrawn, once its valid-until has passed on the portal's clock", async () => {
    const expiredId = quoteIdOf(await saveAsQuote(owner, { validDays: "1" }));
    await db
      .update(quotes)
      .set({ validUntil: new Date((await portalNow()).getTime() - 1_000) })
      .where(eq(quotes.id, expiredId));
    const page = await (await open(quoteLoader, `/quotes/${expiredId}`, owner.cookie, { quoteId: expiredId })).json();
    expect(page.quote.status).toBe("expired");
    expect(page.mayWithdraw).toBe(false);
    const expired = await (await open(listLoader, "/quotes?status=expired", owner.cookie)).json();
    expect(expired.quotes.map((row: { id: string }) => row.id)).toEqual([expiredId]);
    const refused = await post(quoteAction, `/quotes/${expiredId}`, { intent: "withdraw" }, owner.cookie, {
      quoteId: expiredId,
    });
    expect(refused.status).toBe(409);
  });
});

describe("the quotes list's pages", { timeout: 60_000 }, () => {
  it("pages by the rows, newest first, forward and back, keeping the filter", async () => {
    const lister = await person("quotes-pages");
    await subscriptionWizardFor(lister, null).then(({ wizard }) =>
      wizard.save(lister, { ...REVIEWED, organization: lister.organization.name }),
    );
    const made = quoteIdOf(await saveAsQuote(lister));
    const [template] = await db.delete(quotes).where(eq(quotes.id, made)).returning();
    // 47 quotes, three made at each moment (so that pages break inside a moment and the id settles the order
    // there), one in four withdrawn.
    const at = (await portalNow()).getTime();
    await db.insert(quotes).values(
      Array.from({ length: 47 }, (_, n) => ({
        ...template,
        id: `pages-${lister.id}-${String(n).padStart(2, "0")}`,
        number: `Q-PAGES-${lister.id}-${n}`,
        ownerId: lister.id,
        status: n % 4 === 0 ? ("withdrawn" as const) : ("open" as const),
        quotedAt: new Date(at - Math.floor(n / 3) * 60_000),
        createdAt: new Date(at),
      })),
    );
    type Page = { quotes: { id: string; quotedAt: string }[]; earlierHref: string | null; laterHref: string | null };
    const pageAt = async (path: string): Promise<Page> => (await open(listLoader, path, lister.cookie)).json();
    const walk = async (first: string) => {
      const forward = [await pageAt(first)];
      while (forward[forward.length - 1].laterHref) forward.push(await pageAt(forward[forward.length - 1].laterHref!));
      const backward = [forward[forward.length - 1]];
      while (backward[0].earlierHref) backward.unshift(await pageAt(backward[0].earlierHref));
      expect(backward.map((page) => page.quotes)).toEqual(forward.map((page) => page.quotes));
      expect(forward[0].earlierHref).toBeNull();
      const keys = forward.flatMap((page) => page.quotes).map((row) => `${row.quotedAt} ${row.id}`);
      expect(keys).toEqual([...keys].sort().reverse());
      expect(new Set(keys).size).toBe(keys.length);
      return forward;
    };

    const all = await walk("/quotes");
    expect(all.map((page) => page.quotes.length)).toEqual([20, 20, 7]);
    expect(all[1].laterHref).toMatch(new RegExp(`^/quotes\\?after=\\d+\\.pages-${lister.id}-\\d\\d$`));
    const withdrawn = await walk("/quotes?status=withdrawn");
    expect(withdrawn.map((page) => page.quotes.length)).toEqual([12]);
    const open_ = await walk("/quotes?status=open");
    expect(open_.map((page) => page.quotes.length)).toEqual([20, 15]);
    expect(open_[0].laterHref).toMatch(/^\/quotes\?status=open&after=/);
  });

  it("leads an address whose page start is malformed, or past every quote, to the filter's first page", async () => {
    for (const start of ["after=soon", "before=12", "after=1.x", "after=1.x&before=1.x"]) {
      const response = await open(listLoader, `/quotes?status=open&${start}`, owner.cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/quotes?status=open");
    }
  });
});
