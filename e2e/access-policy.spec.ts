import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { POLICY, refusal, type Action } from "~/domain/access-policy";
import { USED_UP_TRIAL } from "~/domain/trials";
import {
  accessTest as test,
  clientOf,
  inHtml,
  inParallel,
  singleFetchMessage,
  singleFetchPayload,
  urlOf,
  type AccessWorld,
  type OrganizationIds,
  type Person,
  type PersonKey,
} from "./access";
import { insertAccount, withDatabase } from "./database";
import { csrfOf, expect } from "./fixtures";

/**
 * Every row of the access policy (app/domain/access-policy.ts), on the server: for each role of a customer and of a
 * distributor, the Technical contact and Viewer of a distributor's end customer (refused what the distributor does
 * for it, with the distributor's name), an administrator and an Owner who has not verified their address, a page or form whose own loader
 * or action checks the row's right answers as the policy says: not 403 where it allows, and 403 with exactly the
 * policy's reason where it refuses, in the HTML of a document (without JavaScript) and in single fetch's `.data`
 * (with JavaScript; a form posted to `<path>.data`, as Remix's forms and fetchers post). The rows that change
 * what happens rather than who may (a distributor's price list, its trials) are checked by what happens.
 */

const PEOPLE: PersonKey[] = [
  "northwindOwner",
  "northwindBillingAdmin",
  "northwindTechnicalContact",
  "northwindViewer",
  "securelineOwner",
  "securelineBillingAdmin",
  "securelineTechnicalContact",
  "securelineViewer",
  "harborTechnicalContact",
  "harborViewer",
  "staff",
  "unverifiedOwner",
];

/**
 * A page (GET) or a form (POST, with the person's CSRF token and these fields, which the action refuses as
 * incomplete or takes as a change of nothing when the person may) whose route checks the right itself. Its path
 * takes the person's organization's ids, or Northwind Clinics' where theirs are not taken (a license, a
 * subscription, an invoice, a card): a role the policy allows then meets another organization's id (404, not 403).
 * Only a distributor has end customers: anyone else asks for "none", refused before it is looked for.
 */
interface Probe {
  routeId: string;
  path: (ids: OrganizationIds) => string;
  post?: Record<string, string>;
}

type Check = { probes: Probe[] } | { behaviour: (access: AccessWorld) => Promise<void> };

const CHECKS: Record<Action, Check> = {
  purchase: {
    probes: [
      { routeId: "routes/_portal.store.subscribe.plan", path: () => "/store/subscribe/plan" },
      { routeId: "routes/_portal.store.subscribe.plan", path: () => "/store/subscribe/plan", post: {} },
    ],
  },
  "licenses.update": {
    probes: [
      {
        routeId: "routes/_portal.licenses.$subscriptionId.update.product",
        path: (ids) => `/licenses/${ids.subscriptionId}/update/product`,
      },
    ],
  },
  "billing.manage": {
    probes: [
      { routeId: "routes/_portal.account_.invoices", path: () => "/account/invoices" },
      { routeId: "routes/_portal.account.shipping", path: () => "/account/shipping", post: {} },
    ],
  },
  "invoices.pay": {
    probes: [
      {
        routeId: "routes/_portal.account_.invoices.payments.$jobId",
        path: (ids) => `/account/invoices/payments/${ids.jobs["pay-now"]}`,
      },
      {
        routeId: "routes/_portal.account_.invoices.$invoiceId.pay",
        path: (ids) => `/account/invoices/${ids.invoiceId}/pay`,
        post: { intent: "previous" },
      },
    ],
  },
  "invoices.correct": {
    probes: [
      {
        routeId: "routes/_portal.account_.invoices.$invoiceId.correct",
        path: (ids) => `/account/invoices/${ids.invoiceId}/correct`,
      },
      {
        routeId: "routes/_portal.account_.invoices.$invoiceId.correct",
        path: (ids) => `/account/invoices/${ids.invoiceId}/correct`,
        post: {},
      },
    ],
  },
  "licenses.auto_renew": {
    probes: [
      {
        routeId: "routes/_portal.licenses.$subscriptionId.auto-renew",
        path: (ids) => `/licenses/${ids.subscriptionId}/auto-renew`,
      },
      {
        routeId: "routes/_portal.licenses.$subscriptionId.auto-renew",
        path: (ids) => `/licenses/${ids.subscriptionId}/auto-renew`,
        post: { intent: "neither" },
      },
    ],
  },
  "licenses.download": {
    probes: [
      {
        routeId: "routes/_portal.licenses.$licenseId.download",
        path: (ids) => `/licenses/${ids.licenseId}/download`,
      },
    ],
  },
  "hubs.deploy": {
    probes: [
      { routeId: "routes/_portal.hubs.new.url", path: () => "/hubs/new/url" },
      { routeId: "routes/_portal.hubs.new.url", path: () => "/hubs/new/url", post: {} },
    ],
  },
  "trials.start": {
    probes: [
      { routeId: "routes/_portal.trial._index", path: () => "/trial" },
      { routeId: "routes/_portal.trial.$hubType.welcome", path: () => "/trial/cloud/welcome" },
    ],
  },
  "members.manage": {
    probes: [{ routeId: "routes/_portal.account_.team", path: () => "/account/team", post: { intent: "invite" } }],
  },
  "activity.view": {
    probes: [{ routeId: "routes/_portal.account_.activity", path: () => "/account/activity" }],
  },
  "prices.reseller": { behaviour: resellerPrices },
  "trials.unlimited": { behaviour: unlimitedTrials },
  "documents.reseller": {
    probes: [{ routeId: "routes/_portal.$section.$page", path: () => "/docs/salesProcessEvaluation" }],
  },
  "customers.read": {
    probes: [
      { routeId: "routes/_portal.customers._index", path: () => "/customers" },
      {
        routeId: "routes/_portal.customers.$customerId._index",
        path: (ids) => `/customers/${ids.customerId ?? "none"}`,
      },
    ],
  },
  "customers.renewals": {
    probes: [
      { routeId: "routes/_portal.customers.renewals", path: () => "/customers/renewals" },
      { routeId: "routes/_portal.customers.renewals[.csv]", path: () => "/customers/renewals.csv" },
    ],
  },
  "customers.manage": {
    probes: [
      { routeId: "routes/_portal.customers.new", path: () => "/customers/new" },
      { routeId: "routes/_portal.customers.new", path: () => "/customers/new", post: {} },
      {
        routeId: "routes/_portal.customers.$customerId.edit",
        path: (ids) => `/customers/${ids.customerId ?? "none"}/edit`,
      },
      {
        routeId: "routes/_portal.customers.$customerId.edit",
        path: (ids) => `/customers/${ids.customerId ?? "none"}/edit`,
        post: {},
      },
    ],
  },
  "customers.people": {
    probes: [
      {
        routeId: "routes/_portal.customers.$customerId._index",
        path: (ids) => `/customers/${ids.customerId ?? "none"}`,
        post: { intent: "neither" },
      },
    ],
  },
  "quotes.manage": {
    probes: [
      {
        routeId: "routes/_portal.quotes.$quoteId._index",
        path: (ids) => `/quotes/${ids.quoteId ?? "none"}`,
        post: { intent: "neither" },
      },
    ],
  },
  // The end customer's quote (Northwind Clinics' own for anyone else), accepted with no name: refused at the field.
  "quotes.accept": {
    probes: [
      {
        routeId: "routes/_portal.quotes.$quoteId._index",
        path: (ids) => `/quotes/${ids.quoteId ?? "none"}`,
        post: { intent: "accept" },
      },
    ],
  },
  "customers.purchase": {
    probes: [
      {
        routeId: "routes/_portal.store.subscribe.plan",
        path: (ids) => `/store/subscribe/plan?customer=${ids.customerId ?? "none"}`,
      },
      {
        routeId: "routes/_portal.store.subscribe.hosting",
        path: (ids) => `/store/subscribe/hosting?customer=${ids.customerId ?? "none"}`,
        post: {},
      },
    ],
  },
  "customers.trials": {
    probes: [
      { routeId: "routes/_portal.trial._index", path: (ids) => `/trial?customer=${ids.customerId ?? "none"}` },
      {
        routeId: "routes/_portal.trial.$hubType.welcome",
        path: (ids) => `/trial/cloud/welcome?customer=${ids.customerId ?? "none"}`,
        post: {},
      },
    ],
  },
  // An organization that is no end customer: an administrator is told so (404), anyone else the policy's 403.
  "customers.move": {
    probes: [
      {
        routeId: "routes/_portal.admin.customers_.$organizationId_.move",
        path: (ids) => `/admin/customers/${ids.organizationId}/move`,
      },
      {
        routeId: "routes/_portal.admin.customers_.$organizationId_.move",
        path: (ids) => `/admin/customers/${ids.organizationId}/move`,
        post: {},
      },
    ],
  },
  "staff.admin": {
    probes: [
      { routeId: "routes/_portal.admin.customers", path: () => "/admin/customers" },
      { routeId: "routes/_portal.admin.customers", path: () => "/admin/customers", post: {} },
    ],
  },
};

/** The person's organization's ids, and Northwind Clinics' for what theirs has none of. */
const idsOf = (access: AccessWorld, person: Person): OrganizationIds => ({
  ...access.ids.northwind,
  ...(person.organization ? access.ids[person.organization] : {}),
});

/** What is wrong with the answers to the probes of `action`, for each person: nothing when all is as the policy says. */
async function findingsOf(access: AccessWorld, action: Action, probes: Probe[]): Promise<string[]> {
  const people = await Promise.all(PEOPLE.map((key) => access.person(key)));
  // Each person's session's CSRF token, as every page renders it, for the forms.
  const tokens = new Map(
    probes.some((probe) => probe.post)
      ? await Promise.all(people.map(async (person) => [person, await csrfOf(person.api, "/account")] as const))
      : [],
  );
  const asks = people.flatMap((person) =>
    probes.flatMap((probe) => (["document", "single fetch"] as const).map((form) => ({ person, probe, form }))),
  );
  const findings = await inParallel(asks, 4, async ({ person, probe, form }) => {
    const path = probe.path(idsOf(access, person));
    const reason = refusal(person.subject!, action);
    const url = probe.post ? urlOf(path, form) : urlOf(path, form, probe.routeId);
    const response = probe.post
      ? await person.api.post(url, { form: { ...probe.post, csrf: tokens.get(person) ?? "" } })
      : await person.api.get(url);
    const asked = `${person.name}: ${probe.post ? "POST" : "GET"} ${url} answered ${response.status()}`;
    if (response.status() >= 500) return `${asked}, a server error`;
    if (reason === null) return response.status() === 403 ? `${asked}, though the policy allows it` : null;
    if (response.status() !== 403) return `${asked}, not 403 with "${reason}"`;
    const said =
      form === "document"
        ? (await response.text()).includes(inHtml(reason))
        : (await singleFetchMessage(response, probe.post ? undefined : probe.routeId)) === reason;
    return said ? null : `${asked} without the policy's reason "${reason}"`;
  });
  return findings.filter((finding): finding is string => finding !== null);
}

/** The Core plan's price per user, as the plan step shows it: the reseller price list's for a distributor. */
const CORE_PRICE = {
  customer: { monthly: "$4.00 per user per month", yearly: "$38.40 per user per year" },
  reseller: { monthly: "$3.00 per user per month", yearly: "$28.80 per user per year" },
} as const;

/**
 * A distributor's estimates are priced from the reseller price list, a customer's from the list prices: what the
 * plan step of the Store offers each person who may buy, in its data and on the page.
 */
async function resellerPrices(access: AccessWorld) {
  const people = await Promise.all(PEOPLE.map((key) => access.person(key)));
  const buyers = people.filter((person) => refusal(person.subject!, "purchase") === null);
  expect(buyers.length).toBeGreaterThanOrEqual(4);
  for (const person of buyers) {
    const list = refusal(person.subject!, "prices.reseller") === null ? "reseller" : "customer";
    const routeId = "routes/_portal.store.subscribe.plan";
    const data = (await singleFetchPayload(
      await person.api.get(urlOf("/store/subscribe/plan", "single fetch", routeId)),
    )) as Record<string, { data: { cycle: "monthly" | "yearly"; plans: { id: string; tier: string }[] } }>;
    const { cycle, plans } = data[routeId].data;
    expect(
      plans.map((plan) => plan.id.startsWith("reseller-")),
      `${person.name}: the plans of the ${list} price list`,
    ).toEqual(plans.map(() => list === "reseller"));
    const page = await (await person.api.get("/store/subscribe/plan")).text();
    expect(page, `${person.name}: Core at the ${list} price`).toContain(
      `Core (${cycle === "monthly" ? "Monthly" : "Annual"} Billing) · ${CORE_PRICE[list][cycle]}`,
    );
  }
}

/**
 * A customer has one trial; a distributor starts any number: an Owner of each whose organization has had a trial
 * already is offered a second one, or told 'You have used up your trial.' (the chooser, and a wizard's step,
 * which sends back to it).
 */
async function unlimitedTrials(access: AccessWorld) {
  for (const kind of ["customer", "distributor"] as const) {
    const organizationName = `Trial ${kind}`;
    const email = `had-a-trial-${randomUUID().slice(0, 8)}@${kind}.example`;
    const id = randomUUID();
    await withDatabase(access.databaseUrl, async (db, t) => {
      await insertAccount(db, {
        id,
        email,
        firstName: "Trial",
        lastName: kind,
        company: organizationName,
      });
      await db.update(t.organizations).set({ customerType: kind }).where(eq(t.organizations.id, id));
      await db.insert(t.trials).values({
        id: randomUUID(),
        ownerId: id,
        userId: id,
        hubType: "onpremise",
        nodes: 10,
        employees: 10,
        duration: 30,
      });
    });
    const api = await clientOf(access.baseURL, email);
    const subject = {
      staff: false,
      emailVerified: true,
      member: { role: "owner" as const, kind, organizationName, managedBy: null },
    };
    const unlimited = refusal(subject, "trials.unlimited") === null;
    try {
      const routeId = "routes/_portal.trial._index";
      const data = (await singleFetchPayload(await api.get(urlOf("/trial", "single fetch", routeId)))) as Record<
        string,
        { data: { eligible: boolean } }
      >;
      expect(data[routeId].data.eligible, `a ${kind} that had a trial may start another`).toBe(unlimited);
      const page = await (await api.get("/trial")).text();
      expect(page.includes(inHtml(USED_UP_TRIAL)), `a ${kind}: '${USED_UP_TRIAL}'`).toBe(!unlimited);
      const step = await api.get("/trial/cloud/welcome");
      expect(step.status(), `a ${kind}'s trial wizard`).toBe(unlimited ? 200 : 302);
      if (!unlimited) expect(step.headers()["location"]).toBe("/trial");
    } finally {
      await api.dispose();
    }
  }
}

test.describe("the access policy, row by row, on the server", () => {
  // Requests without a browser, asked of every route by every kind of person: once is enough, on the portal
  // without JavaScript (vitest runs every route's own tests on both engines).
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "HTTP only: once is enough");

  // Signing in costs the portal a password hash each: once for all, before the rows.
  test.beforeAll(async ({ access }) => {
    await Promise.all(PEOPLE.map((key) => access.person(key)));
  });

  test("every row of the policy has a check here", () => {
    expect(Object.keys(CHECKS).sort()).toEqual(Object.keys(POLICY).sort());
  });

  for (const [action, check] of Object.entries(CHECKS) as [Action, Check][]) {
    test(action, async ({ access }) => {
      if ("behaviour" in check) await check.behaviour(access);
      else expect(await findingsOf(access, action, check.probes)).toEqual([]);
    });
  }
});
