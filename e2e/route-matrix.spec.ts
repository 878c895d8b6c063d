import { refusal, type Action } from "~/domain/access-policy";
import {
  accessTest as test,
  answersData,
  FORMS,
  inParallel,
  NAMES,
  urlOf,
  type AccessWorld,
  type JobKindName,
  type Organization,
  type Person,
  type PersonKey,
} from "./access";
import { expect } from "./fixtures";

/**
 * No route relies on a parent's check: every route of the app, asked for alone (single fetch's
 * `<path>.data?_routes=<id>` and the legacy `?_data=<id>`, which run that route's loader only) and as a document,
 * by each role of a customer, by a member of another organization (a distributor), by a person of a distributor's
 * end customer (which holds what the distributor bought for it, and nothing else of it), by an administrator, by a
 * person of no organization and by a visitor, with its URL's ids of each organization's things, answers its data
 * only to whom the table below gives it, and refuses no one it gives it to (no 403).
 */

/**
 * The right reading a route needs: an action of the access policy, "member" (any member of the organization that
 * owns what the URL names), "user" (anyone signed in, of an organization or not: their own profile, the shell),
 * or "public".
 */
type Right = Action | "member" | "user" | "public";

interface RouteRow {
  right: Right;
  /** Its URL, where the path's parameters name no organization's thing: a page, a token, or a catch-all. */
  url?: string;
  /** The kind of job whose progress a `:jobId` route shows. */
  job?: JobKindName;
  /** The kind of trial a `:hubType` step is for (a cloud one when not named). */
  hubType?: "onpremise";
  /** More URLs of the route, needing another right (a document only for distributors). */
  also?: { url: string; right: Right }[];
}

const ROUTES: Record<string, RouteRow> = {
  root: { right: "public" },
  "routes/$": { right: "public", url: "/no-such-page" },
  "routes/_index": { right: "public" },
  "routes/favicon[.]ico": { right: "public" },
  "routes/healthz": { right: "public" },
  "routes/readyz": { right: "public" },
  "routes/license-public-key[.]pem": { right: "public" },
  "routes/login": { right: "public" },
  "routes/login_.link": { right: "public" },
  "routes/login_.link_.$token": { right: "public" },
  "routes/logout": { right: "public" },
  "routes/signup": { right: "public" },
  "routes/forgot-password": { right: "public" },
  "routes/reset-password.$token": { right: "public" },
  "routes/verify-email": { right: "public" },
  "routes/verify-email_.$token": { right: "public" },
  "routes/invitations.$token": { right: "public" },
  "routes/quote.$token._index": { right: "public" },
  "routes/quote.$token.pdf": { right: "public" },
  "routes/organizations.switch": { right: "public" },
  "routes/preferences.sidebar": { right: "public" },
  "routes/webhooks.chargebee": { right: "public" },
  // The embedded card gateway's bank page: the bank's, not the portal's; the setup's random id is its only key.
  "routes/cards.authenticate.$attemptId": { right: "public", url: "/cards/authenticate/seti_local_none" },

  // The shell: the person and the organizations they may switch to.
  "routes/_portal": { right: "user", url: "/support" },
  "routes/_portal.support": { right: "user" },
  "routes/_portal.home": { right: "member" },
  "routes/_portal.$section.$page": {
    right: "member",
    url: "/docs/manuals",
    also: [{ url: "/docs/salesProcessEvaluation", right: "documents.reseller" }],
  },

  // The account: the person's own profile for anyone; the organization's billing for the roles that manage it.
  "routes/_portal.account": { right: "user" },
  "routes/_portal.account.cards.new": { right: "billing.manage" },
  "routes/_portal.account.cards.$sourceId.replace": { right: "billing.manage" },
  "routes/_portal.account_.cards.return": { right: "billing.manage", url: "/account/cards/return" },
  "routes/_portal.account.profile": { right: "billing.manage" },
  "routes/_portal.account.shipping": { right: "billing.manage" },
  "routes/_portal.account_.team": { right: "member" },
  "routes/_portal.account_.activity": { right: "activity.view" },
  "routes/_portal.account_.invoices": { right: "billing.manage" },
  "routes/_portal.account_.invoices.$invoiceId.pdf": { right: "billing.manage" },
  "routes/_portal.account_.invoices.$invoiceId.correct": { right: "invoices.correct" },
  "routes/_portal.account_.invoices.$invoiceId.pay": { right: "invoices.pay" },
  "routes/_portal.account_.invoices.$invoiceId.pay.cards.new": { right: "billing.manage" },
  "routes/_portal.account_.invoices.$invoiceId.pay.cards.$sourceId.replace": { right: "billing.manage" },
  "routes/_portal.account_.invoices.payments.$jobId": { right: "invoices.pay", job: "pay-now" },
  "routes/_portal.account_.invoices.payments.$jobId.cards.new": { right: "billing.manage", job: "pay-now" },
  "routes/_portal.account_.invoices.payments.$jobId.cards.$sourceId.replace": {
    right: "billing.manage",
    job: "pay-now",
  },

  // Licenses: read by every member; the rest by the roles that download, change or buy.
  "routes/_portal.licenses": { right: "member" },
  "routes/_portal.licenses.$licenseId.download": { right: "licenses.download" },
  "routes/_portal.licenses.$licenseId.renew": { right: "purchase" },
  "routes/_portal.licenses.$subscriptionId.auto-renew": { right: "licenses.auto_renew" },
  "routes/_portal.licenses.$subscriptionId.update": { right: "licenses.update" },
  "routes/_portal.licenses.$subscriptionId.update.product": { right: "licenses.update" },
  "routes/_portal.licenses.$subscriptionId.update.billing": { right: "licenses.update" },
  "routes/_portal.licenses.$subscriptionId.update.billing.cards.new": { right: "billing.manage" },
  "routes/_portal.licenses.$subscriptionId.update.billing.cards.$sourceId.replace": { right: "billing.manage" },
  "routes/_portal.licenses.$subscriptionId.update.billing.profile": { right: "billing.manage" },
  "routes/_portal.licenses.$subscriptionId.update.billing.shipping": { right: "billing.manage" },
  "routes/_portal.licenses.$subscriptionId.update.review": { right: "licenses.update" },
  "routes/_portal.licenses.updates.$jobId": { right: "member", job: "license-update" },
  "routes/_portal.licenses.updates.$jobId.cards.new": { right: "billing.manage", job: "license-update" },
  "routes/_portal.licenses.updates.$jobId.cards.$sourceId.replace": { right: "billing.manage", job: "license-update" },

  // The Store and its wizard.
  "routes/_portal.store": { right: "member" },
  "routes/_portal.store.subscription": { right: "purchase" },
  "routes/_portal.store.subscribe": { right: "purchase" },
  "routes/_portal.store.subscribe.plan": { right: "purchase" },
  "routes/_portal.store.subscribe.hosting": { right: "purchase" },
  "routes/_portal.store.subscribe.hardware": { right: "purchase" },
  "routes/_portal.store.subscribe.support": { right: "purchase" },
  "routes/_portal.store.subscribe.review": { right: "purchase" },
  "routes/_portal.store.subscribe.billing": { right: "purchase" },
  "routes/_portal.store.subscribe.billing.cards.new": { right: "billing.manage" },
  "routes/_portal.store.subscribe.billing.cards.$sourceId.replace": { right: "billing.manage" },
  "routes/_portal.store.subscribe.billing.profile": { right: "billing.manage" },
  "routes/_portal.store.subscribe.billing.shipping": { right: "billing.manage" },
  "routes/_portal.store.subscribe.order": { right: "purchase" },
  "routes/_portal.store.orders.$jobId": { right: "member", job: "new-subscription" },
  // An intent no organization's job waits on: a 404 to every member, the right of the job's own page checked after.
  "routes/_portal.payments.authenticate.$intentId": { right: "member", url: "/payments/authenticate/pi_none" },
  "routes/_portal.store.orders.$jobId.cards.new": { right: "billing.manage", job: "new-subscription" },
  "routes/_portal.store.orders.$jobId.cards.$sourceId.replace": { right: "billing.manage", job: "new-subscription" },

  // Hubs: read by every member; deployed and signed in to by the technical roles.
  "routes/_portal.hubs": { right: "member" },
  "routes/_portal.hubs.$hubId.licenses": { right: "member" },
  "routes/_portal.hubs.$hubId.sign-in": { right: "hubs.deploy" },
  "routes/_portal.hubs.new": { right: "hubs.deploy" },
  "routes/_portal.hubs.new.url": { right: "hubs.deploy" },
  "routes/_portal.hubs.new.license": { right: "hubs.deploy" },
  "routes/_portal.hubs.new.admin": { right: "hubs.deploy" },
  "routes/_portal.hubs.new.review": { right: "hubs.deploy" },
  "routes/_portal.hubs.deployments.$jobId": { right: "member", job: "cloud-hub" },

  // Trials: started by the roles that may; a trial's progress followed by every member. The layout reads nothing.
  "routes/_portal.trial": { right: "member" },
  "routes/_portal.trial._index": { right: "trials.start" },
  "routes/_portal.trial.$hubType": { right: "trials.start" },
  "routes/_portal.trial.$hubType.welcome": { right: "trials.start" },
  "routes/_portal.trial.$hubType.instance": { right: "trials.start" },
  "routes/_portal.trial.$hubType.license": { right: "trials.start", hubType: "onpremise" },
  "routes/_portal.trial.$hubType.admin": { right: "trials.start" },
  "routes/_portal.trial.$hubType.hardware": { right: "trials.start" },
  "routes/_portal.trial.$hubType.address": { right: "trials.start" },
  "routes/_portal.trial.$hubType.payment": { right: "trials.start" },
  "routes/_portal.trial.$hubType.payment.cards.new": { right: "billing.manage" },
  "routes/_portal.trial.$hubType.payment.cards.$sourceId.replace": { right: "billing.manage" },
  "routes/_portal.trial.$hubType.review": { right: "trials.start" },
  "routes/_portal.trial.$hubType.order": { right: "trials.start" },
  "routes/_portal.trial.runs.$jobId": { right: "member", job: "cloud-trial" },
  "routes/_portal.trial.runs.$jobId.cards.new": { right: "billing.manage", job: "cloud-trial" },
  "routes/_portal.trial.runs.$jobId.cards.$sourceId.replace": { right: "billing.manage", job: "cloud-trial" },

  // A distributor's end customers: read by the roles that see them, added and changed by the billing roles.
  "routes/_portal.customers._index": { right: "customers.read" },
  "routes/_portal.customers.new": { right: "customers.manage" },
  "routes/_portal.customers.$customerId._index": { right: "customers.read" },
  "routes/_portal.customers.$customerId.edit": { right: "customers.manage" },
  "routes/_portal.customers.renewals": { right: "customers.renewals" },
  "routes/_portal.customers.renewals[.csv]": { right: "customers.renewals" },

  // Quotes: read by every member of the organization that made them (the changes are the actions').
  "routes/_portal.quotes._index": { right: "member" },
  "routes/_portal.quotes.$quoteId._index": { right: "member" },
  "routes/_portal.quotes.$quoteId.pdf": { right: "member" },

  // Administration: any organization's, for GateKeeper administrators.
  "routes/_portal.admin._index": { right: "staff.admin" },
  "routes/_portal.admin.customers": { right: "staff.admin" },
  "routes/_portal.admin.customers_.$organizationId": { right: "staff.admin" },
  "routes/_portal.admin.customers_.$organizationId_.move": { right: "customers.move" },
  "routes/_portal.admin.outbox": { right: "staff.admin" },
  "routes/_portal.admin.time-machine": { right: "staff.admin" },
  "routes/admin.outbox.$messageId.html": { right: "staff.admin" },
};

/** The URL parameters that name an organization's things: only its members may read what they name. */
const OWNED = [
  "organizationId",
  "sourceId",
  "invoiceId",
  "hubId",
  "licenseId",
  "subscriptionId",
  "jobId",
  "customerId",
  "quoteId",
];

/** Rights whose reader may read any organization's things (or no organization's). */
const ANY_ORGANIZATION: Right[] = ["public", "staff.admin", "customers.move"];

/** A route as the build's manifest has it (build/index.js, made by `npm run build` before the e2e tests). */
interface BuiltRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: { loader?: unknown };
}

let manifest: Promise<Record<string, BuiltRoute>> | undefined;
const builtRoutes = () =>
  (manifest ??= import(new URL("../build/index.js", import.meta.url).href).then(
    (build: { routes: Record<string, BuiltRoute> }) => build.routes,
  ));

/** The route and its parents up to the root, root first. */
function lineOf(routes: Record<string, BuiltRoute>, id: string): BuiltRoute[] {
  const route = routes[id];
  return route.parentId ? [...lineOf(routes, route.parentId), route] : [route];
}

/** The routes a document request of the route's URL runs the loaders of: its line, and its index route if it has one. */
function matchedAt(routes: Record<string, BuiltRoute>, id: string): BuiltRoute[] {
  const index = Object.values(routes).find((route) => route.parentId === id && route.index && !route.path);
  return [...lineOf(routes, id), ...(index ? [index] : [])].filter((route) => route.module.loader);
}

const pathOf = (routes: Record<string, BuiltRoute>, id: string) =>
  `/${lineOf(routes, id)
    .map((route) => route.path)
    .filter(Boolean)
    .join("/")}`;

/** One URL of a route to ask for: the organization whose things it names (null: none), and the right it needs. */
interface Target {
  routeId: string;
  url: string;
  right: Right;
  owner: Organization | null;
  /** The page below the route whose URL it is, for a layout asked for under one of its pages. */
  under?: string;
}

const namesOwnedThings = (template: string) => OWNED.some((name) => template.includes(`:${name}`));

/** The route's URLs, its parameters filled with each organization's ids (where it has such a thing). */
function targetsOf(routes: Record<string, BuiltRoute>, routeId: string, world: AccessWorld): Target[] {
  const row = ROUTES[routeId];
  const urls = [{ url: row.url ?? pathOf(routes, routeId), right: row.right }, ...(row.also ?? [])];
  return urls.flatMap(({ url, right }) => {
    const names = [...url.matchAll(/:(\w+)/g)].map((match) => match[1]);
    const owners: (Organization | null)[] = namesOwnedThings(url) ? ["northwind", "secureline"] : [null];
    return owners.flatMap((owner) => {
      const value = (name: string): string | undefined => {
        if (name === "hubType") return row.hubType ?? "cloud";
        if (name === "token") return "not-a-token";
        if (name === "messageId") return world.outboxMessageId;
        if (!owner) return undefined;
        const ids = world.ids[owner];
        return name === "jobId" ? row.job && ids.jobs[row.job] : (ids[name as keyof typeof ids] as string | undefined);
      };
      const values = names.map(value);
      if (values.some((filled) => filled === undefined)) return [];
      const filled = names.reduce((path, name, index) => path.replace(`:${name}`, values[index] ?? ""), url);
      return [{ routeId, url: filled, right, owner }];
    });
  });
}

/**
 * The layouts over the page, at the page's URL: single fetch runs a layout's loader under each of its pages (on
 * every navigation between them), where it must answer no more than its own right gives, whatever the page checks.
 * The shell, which every signed-in person reads, is left out: its own URL tests it.
 */
function layoutsAt(routes: Record<string, BuiltRoute>, page: Target): Target[] {
  return lineOf(routes, page.routeId)
    .filter(({ id, module }) => id !== page.routeId && module.loader && id in ROUTES)
    .filter(({ id }) => !["public", "user"].includes(ROUTES[id].right))
    .map(({ id }) => ({
      routeId: id,
      url: page.url,
      right: ROUTES[id].right,
      owner: namesOwnedThings(pathOf(routes, id)) ? page.owner : null,
      under: page.routeId,
    }));
}

/** Whether the table gives the person the right (leaving aside whose things the URL names). */
function gives(person: Person, right: Right): boolean {
  const { subject } = person;
  if (right === "public") return true;
  if (!subject) return false;
  if (right === "user") return true;
  if (right === "member") return subject.member !== null;
  return refusal(subject, right) === null;
}

/** Whether the table gives the person the route's data at this URL, asked for alone or as a document. */
function mayRead(routes: Record<string, BuiltRoute>, person: Person, target: Target, alone: boolean): boolean {
  const ownThings =
    target.owner === null || ANY_ORGANIZATION.includes(target.right) || person.organization === target.owner;
  if (!ownThings) return false;
  if (alone) return gives(person, target.right);
  // A document answers when every loader of the page does: the route's own, its parents' and its index route's.
  return (
    gives(person, target.right) &&
    matchedAt(routes, target.routeId).every((route) => !(route.id in ROUTES) || gives(person, ROUTES[route.id].right))
  );
}

/** What went wrong for the person: data the table does not give them, or a refusal of what it gives. */
async function findingsFor(person: Person, world: AccessWorld): Promise<string[]> {
  const routes = await builtRoutes();
  // The routes of the build the table names (the test above fails for any other).
  const pages = Object.keys(routes)
    .filter((routeId) => routeId in ROUTES)
    .flatMap((routeId) => targetsOf(routes, routeId, world));
  // A layout under a page is asked only by whom the table does not give it: what it may answer there is nothing.
  const layouts = pages
    .flatMap((page) => layoutsAt(routes, page))
    .filter((target) => !mayRead(routes, person, target, true));
  const requests = [
    ...pages.flatMap((target) => FORMS.map((form) => ({ target, form }))),
    ...layouts.map((target) => ({ target, form: "single fetch" as const })),
  ];
  const findings = await inParallel(requests, 6, async ({ target, form }) => {
    const url = urlOf(target.url, form, target.routeId);
    const response = await person.api.get(url);
    const allowed = mayRead(routes, person, target, form !== "document");
    const route = `${target.routeId} (${target.right}${target.under ? `, under ${target.under}` : ""})`;
    if ((await answersData(response, form, target.routeId)) && !allowed) {
      return `${route} answered ${url} with its data (${response.status()})`;
    }
    if (allowed && response.status() === 403) return `${route} refused ${url} (403)`;
    return null;
  });
  return findings.filter((finding): finding is string => finding !== null);
}

test.describe("every route checks its own right", () => {
  // Requests without a browser, asked of every route by every kind of person: once is enough, on the portal
  // without JavaScript (vitest runs every route's own tests on both engines).
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "HTTP only: once is enough");

  test("the table names every route of the app", async () => {
    expect(Object.keys(ROUTES).sort()).toEqual(Object.keys(await builtRoutes()).sort());
  });

  const ASKED_BY: PersonKey[] = [
    "northwindOwner",
    "northwindBillingAdmin",
    "northwindTechnicalContact",
    "northwindViewer",
    "securelineOwner",
    "harborTechnicalContact",
    "staff",
    "noOrganization",
    "visitor",
  ];
  // Signing in costs the portal a password hash each: once for all, before the people's tests.
  test.beforeAll(async ({ access }) => {
    await Promise.all(ASKED_BY.map((key) => access.person(key)));
  });

  for (const key of ASKED_BY) {
    test(`asked by the ${NAMES[key]}`, async ({ access }) => {
      expect(await findingsFor(await access.person(key), access)).toEqual([]);
    });
  }
});
