import { randomUUID } from "node:crypto";
import { request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";
import { and, asc, desc, eq, isNotNull } from "drizzle-orm";
import { decode, type DecodePlugin } from "turbo-stream";
import type { Role, Subject } from "~/domain/access-policy";
import {
  demoPasswordHash,
  organizationIdOf,
  quoteRow,
  withDatabase,
  type TestDatabase,
  type TestTables,
} from "./database";
import { csrfOf, DEMO, DEMO_PASSWORD, expect, test } from "./fixtures";

/**
 * Who asks, for the tests of the access policy over HTTP (e2e/access-policy.spec.ts, e2e/route-matrix.spec.ts):
 * a person of each role in Northwind Clinics (a customer) and in SecureLine Resellers (a distributor), the people
 * SecureLine Resellers handed its end customer Harbor Dental Group over to (a managed organization), a GateKeeper
 * administrator, a person of no organization, a member who has not verified their address, and a visitor who is
 * not signed in. Each signs in once per worker, on an HTTP client of their own that follows no redirect, and the
 * organizations' things (a job of every kind, a Hub, a license, an invoice, a card) are at hand by id.
 */

export type Organization = "northwind" | "secureline" | "harbor";

/** The end customer of SecureLine Resellers whose people the tests add: it holds a license and a Hub bought for it. */
const HARBOR = "Harbor Dental Group";

/** The job kinds that have a progress page. */
export const JOB_KINDS = ["new-subscription", "license-update", "cloud-hub", "cloud-trial", "pay-now"] as const;
export type JobKindName = (typeof JOB_KINDS)[number];

/** An organization's things, by the name of the URL parameter that takes them. */
export interface OrganizationIds {
  organizationId: string;
  hubId: string;
  jobs: Record<JobKindName, string>;
  /** Taken from Northwind Clinics only (whose demo license, subscription, invoice and card these tests use). */
  licenseId?: string;
  subscriptionId?: string;
  invoiceId?: string;
  sourceId?: string;
  /** An end customer: SecureLine Resellers' first (the demo seed gives it three); a customer has none. */
  customerId?: string;
  /**
   * A quote of the organization's own; for an end customer, which makes none, one its distributor made for it and
   * let it accept in the portal.
   */
  quoteId?: string;
}

export interface Person {
  /** As the tests name them: "Viewer of Northwind Clinics". */
  name: string;
  /** As the access policy reads them; null for a visitor who is not signed in. */
  subject: Subject | null;
  /** The organization whose things are theirs. */
  organization: Organization | null;
  api: APIRequestContext;
}

interface Known {
  email: string;
  /** Their organization, where they have the role (the administrator's is GateKeeper's own). */
  organization: Organization | null;
  role: Role | null;
  /** Added by these tests (the demo seed has the Owners, Northwind Clinics' Technical contact and the administrator). */
  added?: "verified" | "unverified";
}

const PEOPLE = {
  northwindOwner: { email: DEMO.customer, organization: "northwind", role: "owner" },
  northwindBillingAdmin: {
    email: "billing-admin@northwind.example",
    organization: "northwind",
    role: "billing_admin",
    added: "verified",
  },
  northwindTechnicalContact: { email: "technical@example.com", organization: "northwind", role: "technical_contact" },
  northwindViewer: { email: "viewer@northwind.example", organization: "northwind", role: "viewer", added: "verified" },
  securelineOwner: { email: DEMO.distributor, organization: "secureline", role: "owner" },
  securelineBillingAdmin: {
    email: "billing-admin@secureline.example",
    organization: "secureline",
    role: "billing_admin",
    added: "verified",
  },
  securelineTechnicalContact: {
    email: "technical@secureline.example",
    organization: "secureline",
    role: "technical_contact",
    added: "verified",
  },
  securelineViewer: {
    email: "viewer@secureline.example",
    organization: "secureline",
    role: "viewer",
    added: "verified",
  },
  harborTechnicalContact: {
    email: "technical@harbor.example",
    organization: "harbor",
    role: "technical_contact",
    added: "verified",
  },
  harborViewer: { email: "viewer@harbor.example", organization: "harbor", role: "viewer", added: "verified" },
  unverifiedOwner: {
    email: "unverified-owner@northwind.example",
    organization: "northwind",
    role: "owner",
    added: "unverified",
  },
  staff: { email: DEMO.admin, organization: null, role: null },
  noOrganization: { email: "no-organization@example.com", organization: null, role: null, added: "verified" },
} satisfies Record<string, Known>;

export type PersonKey = keyof typeof PEOPLE | "visitor";

export interface AccessWorld {
  baseURL: string;
  /** The portal's database, for a test that sets up more. */
  databaseUrl: string;
  /** The person, signed in on first need (a sign-in costs a password hash: about a second of the portal's CPU). */
  person(key: PersonKey): Promise<Person>;
  ids: Record<Organization, OrganizationIds>;
  /** A message in the outbox, for the administrators' page of it. */
  outboxMessageId: string;
}

/**
 * A client of its own, signed in as `email` through the sign-in form (or not signed in, without one). It asks for a
 * new connection each time: a person waits while others ask, and a kept connection reused just as the server
 * closes it for idling fails that request (ECONNRESET), which a browser would send again but this client does not.
 */
export async function clientOf(baseURL: string, email?: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({
    baseURL,
    maxRedirects: 0,
    extraHTTPHeaders: { Connection: "close" },
  });
  if (email) {
    const csrf = await csrfOf(api, "/login");
    const signedIn = await api.post("/login", { form: { email, password: DEMO_PASSWORD, csrf } });
    expect(signedIn.status(), `${email} signs in`).toBe(302);
  }
  return api;
}

/** Adds a person (and their membership) unless a test of this worker's portal added them before. */
async function addPerson(
  db: TestDatabase,
  t: TestTables,
  passwordHash: string,
  person: { email: string; organizationId: string | null; role: Role | null; verified: boolean },
) {
  const [known] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.email, person.email));
  if (known) return;
  const id = randomUUID();
  const [firstName, lastName] = person.email.split("@");
  await db.insert(t.users).values({
    id,
    email: person.email,
    passwordHash,
    firstName,
    lastName,
    emailVerifiedAt: person.verified ? new Date() : null,
  });
  if (person.organizationId && person.role) {
    await db.insert(t.memberships).values({ organizationId: person.organizationId, userId: id, role: person.role });
  }
}

/**
 * A finished job of every kind with a progress page, as the organization's: what the progress pages read (the
 * license update's and the payment's inputs are parsed by their pages). Finished, so that no runner takes them.
 */
async function addJobs(
  db: TestDatabase,
  t: TestTables,
  ownerId: string,
  billingCustomerId: string,
): Promise<Record<JobKindName, string>> {
  const inputs: Record<JobKindName, Record<string, unknown>> = {
    "new-subscription": {},
    "license-update": {
      draftId: "access-tests",
      digest: "access-tests",
      request: {
        customerId: billingCustomerId,
        subscriptionId: "access-tests",
        from: { planId: "core-monthly", planQuantity: 10 },
        planId: "core-monthly",
        planQuantity: 12,
        addons: [],
        couponIds: [],
        paymentSourceId: "access-tests",
      },
      licenseName: "Access Tests",
      tier: "core",
    },
    "cloud-hub": {},
    "cloud-trial": {},
    "pay-now": { customerId: billingCustomerId, invoiceId: "1", paymentSourceId: "access-tests", amount: 4_800 },
  };
  const jobs = Object.fromEntries(JOB_KINDS.map((kind) => [kind, randomUUID()])) as Record<JobKindName, string>;
  await db.insert(t.jobs).values(
    JOB_KINDS.map((kind) => ({
      id: jobs[kind],
      kind,
      ownerId,
      idempotencyKey: `access-tests:${jobs[kind]}`,
      input: inputs[kind],
      steps: {},
      status: "succeeded" as const,
      finishedAt: new Date(),
    })),
  );
  return jobs;
}

/**
 * An open quote of the organization's own, valid for a month: what the quote pages read. For an end customer
 * (`customerId`), one its Technical contacts may accept in the portal.
 */
async function addQuote(db: TestDatabase, t: TestTables, ownerId: string, customerId?: string): Promise<string> {
  const quote = quoteRow({
    ownerId,
    customerId,
    customerMayAccept: customerId !== undefined,
    organizationName: "Access Tests",
    madeByName: "Access Tests",
  });
  await db.insert(t.quotes).values(quote);
  return quote.id;
}

/**
 * Northwind Clinics' things from the demo seed: its recurring license that runs longest (its subscription active,
 * so that its update and auto-renew open), an invoice, its card, its cloud Hub.
 */
async function northwindThings(db: TestDatabase, t: TestTables, organizationId: string, billingCustomerId: string) {
  const [license] = await db
    .select({ id: t.licenses.id, subscriptionId: t.licenses.subscriptionId })
    .from(t.licenses)
    .where(and(eq(t.licenses.ownerId, organizationId), isNotNull(t.licenses.subscriptionId)))
    .orderBy(desc(t.licenses.validTo))
    .limit(1);
  const [invoice] = await db
    .select({ id: t.invoices.id })
    .from(t.invoices)
    .where(eq(t.invoices.ownerId, organizationId))
    .limit(1);
  const [card] = await db
    .select({ id: t.billingPaymentSources.id })
    .from(t.billingPaymentSources)
    .where(eq(t.billingPaymentSources.customerId, billingCustomerId))
    .limit(1);
  const [hub] = await db
    .select({ id: t.hubInstallations.id })
    .from(t.hubInstallations)
    .where(and(eq(t.hubInstallations.ownerId, organizationId), eq(t.hubInstallations.type, "cloud")))
    .limit(1);
  return {
    licenseId: license.id,
    subscriptionId: license.subscriptionId ?? undefined,
    invoiceId: invoice.id,
    sourceId: card?.id,
    hubId: hub.id,
  };
}

/** Who the person is to the access policy: staff or not, verified or not, and their first membership. */
async function subjectOf(db: TestDatabase, t: TestTables, email: string): Promise<Subject> {
  const [user] = await db.select().from(t.users).where(eq(t.users.email, email));
  const [membership] = await db
    .select({
      role: t.memberships.role,
      kind: t.organizations.customerType,
      name: t.organizations.name,
      managedBy: t.organizations.managedBy,
    })
    .from(t.memberships)
    .innerJoin(t.organizations, eq(t.organizations.id, t.memberships.organizationId))
    .where(eq(t.memberships.userId, user.id))
    .orderBy(asc(t.memberships.createdAt), asc(t.memberships.organizationId))
    .limit(1);
  const [manager] = membership?.managedBy
    ? await db
        .select({ name: t.organizations.name })
        .from(t.organizations)
        .where(eq(t.organizations.id, membership.managedBy))
    : [];
  return {
    staff: user.isGKAdmin,
    emailVerified: user.emailVerifiedAt !== null,
    member: membership
      ? {
          role: membership.role,
          kind: membership.kind,
          organizationName: membership.name,
          managedBy: manager?.name ?? null,
        }
      : null,
  };
}

/** The people, their organizations' things and a kept message, in the running portal's database. */
async function prepare(databaseUrl: string) {
  return withDatabase(databaseUrl, async (db, t) => {
    const organizationIds: Record<Organization, string> = {
      northwind: await organizationIdOf(db, DEMO.customer),
      secureline: await organizationIdOf(db, DEMO.distributor),
      harbor: (await db.select().from(t.organizations).where(eq(t.organizations.name, HARBOR)))[0].id,
    };
    const passwordHash = await demoPasswordHash(db);
    for (const person of Object.values(PEOPLE) as Known[]) {
      if (!person.added) continue;
      await addPerson(db, t, passwordHash, {
        email: person.email,
        organizationId: person.organization && organizationIds[person.organization],
        role: person.role,
        verified: person.added === "verified",
      });
    }
    const organizations = await db.select().from(t.organizations);
    const organizationOf = (which: Organization) => organizations.find(({ id }) => id === organizationIds[which])!;
    const northwind = organizationOf("northwind");
    const secureline = organizationOf("secureline");
    const securelineHub = randomUUID();
    await db
      .insert(t.hubInstallations)
      .values({ id: securelineHub, ownerId: secureline.id, type: "local", ip: "10.30.0.7", lastSeen: new Date() });
    const harbor = organizationOf("harbor");
    const [harborHub] = await db
      .select({ id: t.hubInstallations.id })
      .from(t.hubInstallations)
      .where(eq(t.hubInstallations.licenseeId, harbor.id));
    const ids: Record<Organization, OrganizationIds> = {
      northwind: {
        organizationId: northwind.id,
        jobs: await addJobs(db, t, northwind.id, northwind.billingCustomerId ?? ""),
        ...(await northwindThings(db, t, northwind.id, northwind.billingCustomerId ?? "")),
        quoteId: await addQuote(db, t, northwind.id),
      },
      secureline: {
        organizationId: secureline.id,
        jobs: await addJobs(db, t, secureline.id, secureline.billingCustomerId ?? ""),
        hubId: securelineHub,
        quoteId: await addQuote(db, t, secureline.id),
        customerId: organizations
          .filter(({ managedBy }) => managedBy === secureline.id)
          .sort((a, b) => a.name.localeCompare(b.name))[0]?.id,
      },
      harbor: {
        organizationId: harbor.id,
        jobs: await addJobs(db, t, harbor.id, ""),
        hubId: harborHub.id,
        quoteId: await addQuote(db, t, secureline.id, harbor.id),
      },
    };
    const messageId = `access-tests-${randomUUID()}`;
    await db.insert(t.outbox).values({
      messageId,
      from: "portal@gatekeeper.example",
      to: DEMO.customer,
      subject: "A kept message",
      text: "A kept message.",
      html: "<p>A kept message.</p>",
    });
    const [message] = await db.select({ id: t.outbox.id }).from(t.outbox).where(eq(t.outbox.messageId, messageId));
    const keys = Object.keys(PEOPLE) as (keyof typeof PEOPLE)[];
    const subjects = await Promise.all(keys.map((key) => subjectOf(db, t, PEOPLE[key].email)));
    return {
      ids,
      outboxMessageId: String(message.id),
      subjects: Object.fromEntries(keys.map((key, index) => [key, subjects[index]])) as Record<
        keyof typeof PEOPLE,
        Subject
      >,
    };
  });
}

/** How the tests name each person. */
export const NAMES: Record<PersonKey, string> = {
  northwindOwner: "Owner of Northwind Clinics (a customer)",
  northwindBillingAdmin: "Billing admin of Northwind Clinics",
  northwindTechnicalContact: "Technical contact of Northwind Clinics",
  northwindViewer: "Viewer of Northwind Clinics",
  securelineOwner: "Owner of SecureLine Resellers (a distributor)",
  securelineBillingAdmin: "Billing admin of SecureLine Resellers",
  securelineTechnicalContact: "Technical contact of SecureLine Resellers",
  securelineViewer: "Viewer of SecureLine Resellers",
  harborTechnicalContact: "Technical contact of Harbor Dental Group (an end customer of SecureLine Resellers)",
  harborViewer: "Viewer of Harbor Dental Group",
  unverifiedOwner: "Owner of Northwind Clinics who has not verified their address",
  staff: "GateKeeper administrator",
  noOrganization: "person of no organization",
  visitor: "visitor who is not signed in",
};

/** The access tests' fixtures: the people, each signed in once per worker, and the organizations' things. */
export const accessTest = test.extend<object, { access: AccessWorld }>({
  access: [
    async ({ portal }, use) => {
      const { ids, outboxMessageId, subjects } = await prepare(portal.databaseUrl);
      const signedIn = new Map<PersonKey, Promise<Person>>();
      const signIn = async (key: PersonKey): Promise<Person> => {
        const known = key === "visitor" ? null : PEOPLE[key];
        return {
          name: NAMES[key],
          subject: known && subjects[key as keyof typeof PEOPLE],
          organization: known?.organization ?? null,
          api: await clientOf(portal.baseURL, known?.email),
        };
      };
      const person = (key: PersonKey) => {
        const existing = signedIn.get(key);
        if (existing) return existing;
        const started = signIn(key);
        signedIn.set(key, started);
        return started;
      };
      await use({ baseURL: portal.baseURL, databaseUrl: portal.databaseUrl, person, ids, outboxMessageId });
      await Promise.all([...signedIn.values()].map(async (started) => (await started).api.dispose()));
    },
    { scope: "worker" },
  ],
});

/** How a page is asked for: as a document (no JavaScript), or its data as Remix asks with JavaScript. */
export const FORMS = ["document", "single fetch", "legacy data"] as const;
export type Form = (typeof FORMS)[number];

/**
 * The URL of `path` in that form: the page itself; single fetch's `<path>.data` (`/_root.data` for `/`), with
 * `_routes` naming the route whose loader alone runs (none for a post: an action's `.data` names none); or the
 * legacy `?_data=<route id>`.
 */
export function urlOf(path: string, form: Form, routeId?: string): string {
  if (form === "document") return path;
  const [pathname, query = ""] = path.split("?");
  const search = new URLSearchParams(query);
  if (form === "legacy data") {
    search.set("_data", routeId ?? "");
    return `${pathname}?${search}`;
  }
  if (routeId) search.set("_routes", routeId);
  const data = pathname === "/" ? "/_root.data" : `${pathname.replace(/\/$/, "")}.data`;
  return search.size ? `${data}?${search}` : data;
}

/** Remix's own values in single fetch's turbo-stream, as its browser code decodes them (app code never reads them). */
const remixValues: DecodePlugin = (type, ...values) => {
  if (type === "ErrorResponse") return { value: { status: values[1], data: values[0] } };
  if (type === "SanitizedError") return { value: new Error(String(values[1])) };
  if (type === "SingleFetchRedirect") return { value: { redirect: values[0] } };
  if (type === "SingleFetchClassInstance") return { value: values[0] };
  if (type === "SingleFetchFallback") return { value: undefined };
  return undefined;
};

/** What a single fetch answer (`.data`) holds. */
export async function singleFetchPayload(response: APIResponse): Promise<unknown> {
  const body = new Blob([new Uint8Array(await response.body())]).stream();
  const { value, done } = await decode(body, { plugins: [remixValues] });
  await done;
  return value;
}

/** A refusal's message as single fetch carries it: a loader's under its route's id, an action's on its own. */
export async function singleFetchMessage(response: APIResponse, routeId?: string): Promise<string | undefined> {
  const payload = (await singleFetchPayload(response)) as Record<string, { error?: { data?: { message?: string } } }>;
  const result = routeId ? payload[routeId] : (payload as { error?: { data?: { message?: string } } });
  return result?.error?.data?.message;
}

/**
 * Whether the answer gives the route's data: a page, a file, or the route's loader data; not a redirect (to sign
 * in, or on), a refusal, or nothing. A server error fails the test at once.
 */
export async function answersData(response: APIResponse, form: Form, routeId: string): Promise<boolean> {
  const status = response.status();
  expect(status, `${response.url()} answers without a server error`).toBeLessThan(500);
  if (status < 200 || status >= 300) return false;
  if (form === "document") return true;
  if (form === "legacy data") return status !== 204 && !response.headers()["x-remix-redirect"];
  // 202: single fetch's redirect.
  if (status === 202) return false;
  const payload = (await singleFetchPayload(response)) as Record<string, object | undefined>;
  const result = payload[routeId];
  return result !== undefined && "data" in result;
}

/** Runs `run` over the items, `size` at a time: the portal answers in parallel, on a busy machine not unboundedly. */
export async function inParallel<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

/** Text as React puts it in HTML, to find a message in a page. */
export const inHtml = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#x27;");
