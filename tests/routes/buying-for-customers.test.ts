import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { subscriptionDraftSchema, type SubscriptionDraft } from "~/domain/new-subscription";
import { NEW_CUSTOMER } from "~/domain/subscription-steps";
import { loader as customerLoader } from "~/routes/_portal.customers.$customerId._index";
import { loader as hostingLoader, action as hostingAction } from "~/routes/_portal.store.subscribe.hosting";
import { loader as planLoader, action as planAction } from "~/routes/_portal.store.subscribe.plan";
import { loader as orderLoader, action as orderAction } from "~/routes/_portal.store.subscribe.order";
import { loader as layoutLoader } from "~/routes/_portal.store.subscribe";
import { action as renewAction } from "~/routes/_portal.licenses.$licenseId.renew";
import { loader as updateProductLoader } from "~/routes/_portal.licenses.$subscriptionId.update.product";
import { licenseRow } from "~/server/subscriptions/license-issuing.server";
import { getBilling } from "~/server/billing/index.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { CHOOSE_CUSTOMER, subscriptionWizardFor } from "~/server/orders/new-subscription-wizard.server";
import { db } from "~/server/platform/database/db.server";
import { JobRunner } from "~/server/platform/jobs/runner.server";
import { findDraft } from "~/server/platform/wizards/drafts.server";
import { createCustomer } from "~/server/resellers/end-customers.server";
import { activity, billingSubscriptions, licenses, organizations } from "~/server/platform/database/tables.server";
import { addCard, newCustomer, subscriptionsOf, type TestCustomer } from "../support/accounts";
import { memberByEmail } from "../support/members";
import { openRoute as open, postRoute as post } from "../support/requests";
import { freshSession } from "../support/sign-in";

/**
 * A distributor buys a license for one of its end customers through the Store's wizard, the customer named by
 * `?customer=` in every step's URL: a draft per member and customer that a bookmarked step reopens in another
 * session, another distributor's customer refused (404) and anyone but a distributor refused by the access
 * policy (403), and the order charged to the distributor once however often it is confirmed, with the license the
 * customer's.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const drain = () => new JobRunner(JOB_KINDS).drain();

/** A distributor of its own (a new organization made a distributor), with a card and a billing address. */
async function newDistributor(label: string) {
  const account = await newCustomer(label);
  await db.update(organizations).set({ customerType: "distributor" }).where(eq(organizations.id, account.id));
  const member = await memberByEmail(account.user.email);
  return { ...account, ...member, cookie: await freshSession(account.user.email) };
}

type Distributor = Awaited<ReturnType<typeof newDistributor>>;

const customerRecord = (name: string) => ({ name, country: "GB", address: null, contactName: "", contactEmail: "" });

/** The plan step's form posted by the distributor from a step of no customer. */
const postPlan = (fields: Record<string, string>) => post(planAction, "/store/subscribe/plan", fields, reseller.cookie);

let reseller: Distributor;
let other: Distributor;
let harbor: string;
let quay: string;
let elsewhere: string;

beforeAll(async () => {
  reseller = await newDistributor("buying");
  other = await newDistributor("other-reseller");
  harbor = (await createCustomer(reseller, customerRecord("Harbor Optics"))).id;
  quay = (await createCustomer(reseller, customerRecord("Quay Surveyors"))).id;
  elsewhere = (await createCustomer(other, customerRecord("Elsewhere Ltd"))).id;
  await addCard(reseller as TestCustomer);
}, 60_000);

describe("the plan step of a distributor", { timeout: 60_000 }, () => {
  it("offers its end customers in place of the organization's name, the URL's chosen", async () => {
    const page = await (await open(planLoader, `/store/subscribe/plan?customer=${harbor}`, reseller.cookie)).json();
    expect(page.customers.customers.map((choice: { name: string }) => choice.name)).toEqual([
      "Harbor Optics",
      "Quay Surveyors",
    ]);
    expect(page.defaults.customer).toBe(harbor);
    // At reseller prices.
    expect(page.plans.every((plan: { id: string }) => plan.id.startsWith("reseller-"))).toBe(true);
  });

  it("moves on to the chosen customer's own draft, its name the license's organization", async () => {
    const response = await postPlan({ customer: quay, organization: "", tier: "core", users: "4" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/store/subscribe/hosting?customer=${quay}`);
    const { data } = await (await subscriptionWizardFor(reseller, quay)).wizard.read(reseller);
    expect(data).toMatchObject({ organization: "Quay Surveyors", users: 4, completed: ["plan"] });
  });

  it("refuses no choice, or another distributor's customer, at the field, keeping what was typed", async () => {
    for (const customer of ["", elsewhere]) {
      const response = await postPlan({ customer, organization: "", tier: "core", users: "9" });
      expect(response.status).toBe(422);
      const body = await response.json();
      expect(body.fieldErrors).toEqual({ customer: CHOOSE_CUSTOMER });
      expect(body.repopulateFields).toMatchObject({ users: "9" });
    }
  });

  it("asks a new customer's name, and keeps that order in a draft of its own", async () => {
    const refused = await postPlan({ customer: NEW_CUSTOMER, organization: "", tier: "core", users: "2" });
    expect(refused.status).toBe(422);
    const response = await postPlan({
      customer: NEW_CUSTOMER,
      organization: "Brand New Clinic",
      tier: "core",
      users: "2",
    });
    expect(response.headers.get("Location")).toBe("/store/subscribe/hosting?customer=new");
    const { data } = await (await subscriptionWizardFor(reseller, NEW_CUSTOMER)).wizard.read(reseller);
    expect(data).toMatchObject({ organization: "Brand New Clinic", users: 2 });
  });
});

describe("a draft per member and customer", { timeout: 60_000 }, () => {
  it("reopens a bookmarked step of one customer in a new session, with that customer's draft only", async () => {
    for (const [customer, users] of [
      [harbor, "6"],
      [quay, "11"],
    ] as const) {
      await post(
        planAction,
        `/store/subscribe/plan?customer=${customer}`,
        { customer, tier: "advanced", users },
        reseller.cookie,
      );
    }
    const fresh = await freshSession(reseller.user.email);
    const hosting = await open(hostingLoader, `/store/subscribe/hosting?customer=${harbor}`, fresh);
    expect(hosting.status).toBe(200);
    expect((await hosting.json()).previousTo).toBe(`/store/subscribe/plan?customer=${harbor}`);
    const chrome = await (await open(layoutLoader, `/store/subscribe/hosting?customer=${harbor}`, fresh)).json();
    expect(chrome.steps.map((step: { to: string }) => step.to)).toContain(`/store/subscribe/order?customer=${harbor}`);
    const drafts = await Promise.all(
      [harbor, quay].map(async (id) => (await subscriptionWizardFor(reseller, id)).wizard.read(reseller)),
    );
    expect(drafts.map(({ data }) => [data.organization, data.users])).toEqual([
      ["Harbor Optics", 6],
      ["Quay Surveyors", 11],
    ]);
    expect(new Set(drafts.map((draft) => draft.id)).size).toBe(2);
    // The distributor's draft of no customer is none of these.
    expect(await findDraft(reseller, "new-subscription")).toBeNull();
    // A step saved for one customer goes on in that customer's URLs.
    const saved = await post(
      hostingAction,
      `/store/subscribe/hosting?customer=${harbor}`,
      { hosting: "on-premise" },
      fresh,
    );
    expect(saved.headers.get("Location")).toBe(`/store/subscribe/hardware?customer=${harbor}`);
  });
});

describe("a customer that is not the distributor's", { timeout: 60_000 }, () => {
  it("is not found for another distributor, nor an unknown id, on any step, loader or action", async () => {
    for (const customer of [elsewhere, "no-such-customer"]) {
      for (const path of ["/store/subscribe/plan", "/store/subscribe/hosting", "/store/subscribe/order"]) {
        const loader = { plan: planLoader, hosting: hostingLoader, order: orderLoader }[path.split("/")[3]]!;
        expect((await open(loader, `${path}?customer=${customer}`, reseller.cookie)).status).toBe(404);
      }
      expect((await open(layoutLoader, `/store/subscribe/plan?customer=${customer}`, reseller.cookie)).status).toBe(
        404,
      );
      const placed = await post(
        orderAction,
        `/store/subscribe/order?customer=${customer}`,
        { intent: "purchase", orderKey: "x" },
        reseller.cookie,
      );
      expect(placed.status).toBe(404);
    }
  });

  it("is refused, by the access policy, to anyone but a distributor's buyer", async () => {
    const northwind = await freshSession("customer@example.com");
    const response = await open(hostingLoader, `/store/subscribe/hosting?customer=${harbor}`, northwind);
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe("End customers are only for GateKeeper distributors.");
    // The customer's own order is untouched by the query's absence.
    expect((await open(planLoader, "/store/subscribe/plan", northwind)).status).toBe(200);
  });
});

describe("the order for a customer", { timeout: 120_000 }, () => {
  const draftAtOrder = (changes: Partial<SubscriptionDraft>): SubscriptionDraft => ({
    ...subscriptionDraftSchema.parse({}),
    tier: "core",
    users: 3,
    hosting: "on-premise",
    completed: ["plan", "hosting", "hardware", "support", "review", "billing"],
    ...changes,
  });

  async function atOrder(customer: string, organization: string) {
    const [card] = await getBilling().listPaymentSources(reseller.billingCustomerId);
    const { wizard } = await subscriptionWizardFor(reseller, customer);
    await wizard.clear(reseller);
    await wizard.save(reseller, draftAtOrder({ organization, paymentSourceId: card.id }));
    const review = await (
      await open(orderLoader, `/store/subscribe/order?customer=${customer}`, reseller.cookie)
    ).json();
    expect(review.problems).toEqual([]);
    expect(review.pageUrl).toBe(`/store/subscribe/order?customer=${customer}`);
    return review.orderKey as string;
  }

  const purchase = async (customer: string, orderKey: string, cookie = reseller.cookie) => {
    const response = await post(
      orderAction,
      `/store/subscribe/order?customer=${customer}&confirm=1`,
      { intent: "purchase", orderKey },
      cookie,
    );
    expect(response.status).toBe(302);
    return response.headers.get("Location");
  };

  it("is charged to the distributor once, at its prices, however often it is confirmed, and the license is the customer's", async () => {
    const orderKey = await atOrder(harbor, "Harbor Optics");
    const before = await subscriptionsOf(reseller.billingCustomerId);
    // A double click, and the same confirmation from a second tab of another session.
    const first = await purchase(harbor, orderKey);
    expect(first).toMatch(/^\/store\/orders\//);
    expect(await purchase(harbor, orderKey)).toBe(first);
    expect(await purchase(harbor, orderKey, await freshSession(reseller.user.email))).toBe(first);
    await drain();
    // A refresh of the confirmation after the order was placed.
    expect(await purchase(harbor, orderKey)).toBe(first);
    await drain();
    expect(await subscriptionsOf(reseller.billingCustomerId)).toBe(before + 1);
    const [subscription] = await db
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.customerId, reseller.billingCustomerId));
    expect(subscription.planId).toMatch(/^reseller-/);
    const bought = await db
      .select()
      .from(licenses)
      .where(and(eq(licenses.ownerId, reseller.id), eq(licenses.licenseeId, harbor)));
    expect(bought).toHaveLength(1);
    expect(bought[0]).toMatchObject({ name: "Harbor Optics", nodes: 3, planType: "core" });
    // The customer's page lists it; its draft is gone.
    const page = await (
      await open(customerLoader, `/customers/${harbor}`, reseller.cookie, { customerId: harbor })
    ).json();
    expect(page.licenses.map((license: { id: string }) => license.id)).toEqual([bought[0].id]);
    expect(page.buyTo).toBe(`/store/subscribe/plan?customer=${harbor}`);
    expect(
      (await (await subscriptionWizardFor(reseller, harbor)).wizard.read(reseller)).id,
      "the customer's draft is cleared",
    ).toBeNull();
  });

  it("adds a new customer once when its order is paid for, and the license is that customer's", async () => {
    const orderKey = await atOrder(NEW_CUSTOMER, "Lighthouse Vets");
    const before = await subscriptionsOf(reseller.billingCustomerId);
    const first = await purchase(NEW_CUSTOMER, orderKey);
    expect(await purchase(NEW_CUSTOMER, orderKey)).toBe(first);
    await drain();
    expect(await purchase(NEW_CUSTOMER, orderKey)).toBe(first);
    await drain();
    expect(await subscriptionsOf(reseller.billingCustomerId)).toBe(before + 1);
    const added = await db
      .select()
      .from(organizations)
      .where(and(eq(organizations.managedBy, reseller.id), eq(organizations.name, "Lighthouse Vets")));
    expect(added).toHaveLength(1);
    const bought = await db.select().from(licenses).where(eq(licenses.licenseeId, added[0].id));
    expect(bought).toHaveLength(1);
    expect(bought[0]).toMatchObject({ ownerId: reseller.id, name: "Lighthouse Vets" });
    const entries = await db
      .select()
      .from(activity)
      .where(and(eq(activity.organizationId, reseller.id), eq(activity.action, "customer.created")));
    expect(entries.filter((entry) => entry.summary.includes("Lighthouse Vets"))).toHaveLength(1);
  });

  it("keeps the update wizard and Renew working for a customer's license, Renew in the customer's draft", async () => {
    const [bought] = await db.select().from(licenses).where(eq(licenses.licenseeId, harbor));
    const product = await open(
      updateProductLoader,
      `/licenses/${bought.subscriptionId}/update/product`,
      reseller.cookie,
      { subscriptionId: bought.subscriptionId! },
    );
    expect(product.status).toBe(200);
    expect((await product.json()).status).not.toBe("error");
    // A license of the customer's that ended, with no subscription left to renew it.
    const ended = licenseRow(
      reseller.id,
      {
        externalLicenseId: `GK-ENDED-${harbor.slice(0, 6)}`,
        name: "Harbor Optics",
        nodes: 12,
        planType: "advanced",
        type: "recurring",
        hasCloudSupport: false,
        validFrom: new Date(Date.now() - 60 * DAY_MS),
        validTo: new Date(Date.now() - DAY_MS),
      },
      { licenseeId: harbor },
    );
    await db.insert(licenses).values(ended);
    const renewed = await post(renewAction, `/licenses/${ended.id}/renew`, {}, reseller.cookie, {
      licenseId: ended.id,
    });
    expect(renewed.headers.get("Location")).toBe(`/store/subscribe/plan?customer=${harbor}`);
    const { data } = await (await subscriptionWizardFor(reseller, harbor)).wizard.read(reseller);
    expect(data).toMatchObject({ organization: "Harbor Optics", users: 12, tier: "advanced" });
  });
});
