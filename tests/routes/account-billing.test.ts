import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { desc, eq } from "drizzle-orm";
import { loader as accountLoader } from "~/routes/_portal.account";
import { action as newCardAction, loader as newCardLoader } from "~/routes/_portal.account.cards.new";
import { action as replaceAction, loader as replaceLoader } from "~/routes/_portal.account.cards.$sourceId.replace";
import { action as profileAction, loader as profileLoader } from "~/routes/_portal.account.profile";
import { action as shippingAction, loader as shippingLoader } from "~/routes/_portal.account.shipping";
import { loader as payNowCardLoader } from "~/routes/_portal.account_.invoices.$invoiceId.pay.cards.new";
import {
  action as updateProfileAction,
  loader as updateProfileLoader,
} from "~/routes/_portal.licenses.$subscriptionId.update.billing.profile";
import { choosePayment, loadPaymentStep } from "~/server/account-billing/billing-details.server";
import { billingFaults, getBilling } from "~/server/billing/index.server";
import { taxIdFaults } from "~/server/tax-ids/index.server";
import { runJobs } from "../support/jobs";
import { toastStorage } from "~/server/accounts/session.server";
import { db } from "~/server/platform/database/db.server";
import { jobs, organizations } from "~/server/platform/database/tables.server";
import { JOB_KINDS } from "~/server/job-kinds.server";
import { JobRunner } from "~/server/platform/jobs/runner.server";
import { memberByEmail } from "../support/members";
import { formRequest, getRequest } from "../support/requests";
import { demoCookie } from "../support/sign-in";

/** The account's billing drawers, called as Remix calls them, with real Requests on the demo seed. */

type Route = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

/** A loader's or action's Response, returned or thrown (redirects and 404s are thrown). */
const settle = (run: Promise<unknown>) =>
  run.then(
    (response) => response as Response,
    (thrown: unknown) => (thrown instanceof Response ? thrown : Promise.reject(thrown)),
  );

const cookieOf = demoCookie;

async function get(route: Route, path: string, email: string, params: Record<string, string> = {}) {
  return settle(route({ request: getRequest(path, await cookieOf(email)), params, context: {} }));
}

async function post(
  route: Route,
  path: string,
  email: string,
  fields: Record<string, string>,
  params: Record<string, string> = {},
) {
  const request = await formRequest(path, fields, { cookie: await cookieOf(email) });
  return settle(route({ request, params, context: {} }));
}

/** The flash toast a redirect carries. */
async function toastOf(response: Response) {
  const session = await toastStorage().getSession(response.headers.get("Set-Cookie"));
  return session.get("toast") as { kind: string; message: string } | undefined;
}

const cannotBeEmpty = (...fields: string[]) => Object.fromEntries(fields.map((field) => [field, "Cannot be empty."]));

const holder = {
  first_name: "Alex",
  last_name: "Morgan",
  address_line1: "1 Harbour Way",
  address_city: "Seattle",
  address_state: "WA",
  address_zip: "98101",
  address_country: "US",
  set_as_primary: "on",
};
const card = (number: string) => ({ ...holder, card_number: number, card_expiry: "09 / 31", card_cvc: "123" });

const address = {
  first_name: "Ravi",
  last_name: "Patel",
  email: "billing@secureline.example",
  phone_country: "GB",
  phone: "020 7946 0321",
  company: "SecureLine Resellers",
  line1: "10 Fleet Street",
  line2: "",
  city: "London",
  state: "Greater London",
  zip: "EC4Y 1AA",
  country: "GB",
};

describe("the account page", () => {
  it("shows the customer's card, billing address and profile, with the card preselected for a wizard", async () => {
    const data = await (await get(accountLoader, "/account", "customer@example.com")).json();
    expect(data.billing.payment).toMatchObject({
      status: "ready",
      preselectedSourceId: "src_demo_visa",
      addressesValid: true,
      shippingAddress: null,
      billingAddress: { line1: "450 Mission Street", city: "San Francisco", country: "US" },
    });
    expect(data.billing.payment.sources).toEqual([
      {
        id: "src_demo_visa",
        type: "card",
        status: "valid",
        card: {
          brand: "visa",
          last4: "4242",
          holder: "Dana Whitfield",
          expiryMonth: 12,
          expiryYear: expect.any(Number),
        },
      },
    ]);
    expect(data.billing.billingProfile).toMatchObject({ firstName: "Dana", company: "Northwind Clinics" });
  });

  it("shows 'Error' for the payment methods and the billing profile when the customer cannot be read", async () => {
    await billingFaults.inject("retrieveCustomer", { message: "Chargebee is down." });
    const data = await (await get(accountLoader, "/account", "customer@example.com")).json();
    expect(data.billing.payment).toEqual({ status: "error" });
    expect(data.billing.billingProfile).toBe("error");
  });
});

describe("adding a card", () => {
  it("says 'Cannot be empty.' for every missing field and the card, and never writes card data back", async () => {
    expect((await memberByEmail("admin@example.com")).organization.billingCustomerId).toBeNull();
    const response = await post(newCardAction, "/account/cards/new", "admin@example.com", {
      card_expiry: "09 / 31",
      address_line2: "Floor 2",
    });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.fieldErrors).toEqual(
      cannotBeEmpty(
        "first_name",
        "last_name",
        "address_line1",
        "address_city",
        "address_state",
        "address_zip",
        "address_country",
        "card",
      ),
    );
    expect(body.repopulateFields).toMatchObject({ address_line2: "Floor 2" });
    expect(body.repopulateFields).not.toHaveProperty("card_expiry");
  });

  it("shows a declined card's message next to the card and in the failure text", async () => {
    const response = await post(newCardAction, "/account/cards/new", "admin@example.com", card("4000 0000 0000 0002"));
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.formError).toBe("Failed to add payment method.");
    expect(body.fieldErrors).toEqual({ card: "Your card was declined." });
    expect(body.repopulateFields).toMatchObject({ first_name: "Alex" });
    expect(body.repopulateFields).not.toHaveProperty("card_number");
    // The billing customer is made on first need: before the card, which the provider refused.
    expect((await memberByEmail("admin@example.com")).organization.billingCustomerId).toMatch(/^cust_/);
  });

  it("adds the card, and then allows no second one", async () => {
    const added = await post(newCardAction, "/account/cards/new", "admin@example.com", {
      ...card("4242 4242 4242 4242"),
      idempotency_key: "k1",
    });
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/account");
    expect(await toastOf(added)).toEqual({ kind: "success", message: "Successfully added new payment method." });

    const {
      billing: { payment },
    } = await (await get(accountLoader, "/account", "admin@example.com")).json();
    expect(payment.sources.map((source: { card: { last4: string; holder: string } }) => source.card)).toMatchObject([
      { last4: "4242", holder: "Alex Morgan", expiryMonth: 9, expiryYear: 2031 },
    ]);

    const limit =
      "Currently only one credit card can be added. Please remove the existing card to use a different credit card.";
    const drawer = await get(newCardLoader, "/account/cards/new", "admin@example.com");
    expect(drawer.headers.get("Location")).toBe("/account");
    expect(await toastOf(drawer)).toEqual({ kind: "info", message: limit });
    const second = await post(newCardAction, "/account/cards/new", "admin@example.com", card("5555 5555 5555 4444"));
    expect(await toastOf(second)).toEqual({ kind: "info", message: limit });
  });

  it("rejects a form without the portal's CSRF token", async () => {
    const request = await formRequest("/account/cards/new", card("4242 4242 4242 4242"), {
      withCsrf: false,
      cookie: await cookieOf("admin@example.com"),
    });
    expect((await settle(newCardAction({ request, params: {}, context: {} }))).status).toBe(403);
  });
});

describe("replacing a card", () => {
  it("opens only for the user's own card", async () => {
    expect(
      (
        await get(replaceLoader, "/account/cards/src_demo_visa/replace", "distributor@example.com", {
          sourceId: "src_demo_visa",
        })
      ).status,
    ).toBe(404);
    const mine = await get(replaceLoader, "/account/cards/src_demo_visa/replace", "customer@example.com", {
      sourceId: "src_demo_visa",
    });
    expect((await mine.json()).replacing).toMatchObject({ id: "src_demo_visa", card: { last4: "4242" } });
    const foreign = await post(
      replaceAction,
      "/account/cards/src_demo_visa/replace",
      "distributor@example.com",
      card("4242 4242 4242 4242"),
      { sourceId: "src_demo_visa" },
    );
    expect(foreign.status).toBe(404);
  });

  it("puts the new card in place of the old one", async () => {
    const response = await post(
      replaceAction,
      "/account/cards/src_demo_visa/replace",
      "customer@example.com",
      card("5555 5555 5555 4444"),
      {
        sourceId: "src_demo_visa",
      },
    );
    expect(await toastOf(response)).toEqual({ kind: "success", message: "Successfully replaced new payment method." });
    const step = await loadPaymentStep(await memberByEmail("customer@example.com"));
    expect(
      step.status === "ready" &&
        step.sources.map((source) => [source.card?.brand, source.id === step.preselectedSourceId]),
    ).toEqual([["mastercard", true]]);
  });
});

describe("a drawer over a page about one of the organization's things", () => {
  // Single fetch may ask for a drawer's data alone, without its parent page's loader: the drawer checks the parent.
  it("opens over the organization's own subscription or invoice only", async () => {
    const update = { subscriptionId: "sub_demo_core_monthly" };
    const updatePath = "/licenses/sub_demo_core_monthly/update/billing/profile";
    expect((await get(updateProfileLoader, updatePath, "distributor@example.com", update)).status).toBe(404);
    expect((await post(updateProfileAction, updatePath, "distributor@example.com", {}, update)).status).toBe(404);
    expect((await get(updateProfileLoader, updatePath, "customer@example.com", update)).status).toBe(200);
    const payNowPath = "/account/invoices/1/pay/cards/new";
    expect((await get(payNowCardLoader, payNowPath, "distributor@example.com", { invoiceId: "1" })).status).toBe(404);
    // The customer has a card on file already: the drawer goes back to the step, which it closes to.
    const own = await get(payNowCardLoader, payNowPath, "customer@example.com", { invoiceId: "1" });
    expect(own.headers.get("Location")).toBe("/account/invoices/1/pay");
  });
});

describe("the billing profile drawer", () => {
  it("starts from the member's own details and the organization's before a billing customer exists", async () => {
    // The demo distributor has one (it pays for its end customers' licenses): taken off it for this test.
    const { organization } = await memberByEmail("distributor@example.com");
    await db.update(organizations).set({ billingCustomerId: null }).where(eq(organizations.id, organization.id));
    const data = await (await get(profileLoader, "/account/profile", "distributor@example.com")).json();
    await db
      .update(organizations)
      .set({ billingCustomerId: organization.billingCustomerId })
      .where(eq(organizations.id, organization.id));
    expect(data.defaults).toMatchObject({
      first_name: "Ravi",
      email: "distributor@example.com",
      company: "SecureLine Resellers",
      phone_country: "GB",
      line1: "",
      country: "GB",
    });
  });

  it("says 'Cannot be empty.' for each required field and 'Please select your country.' for the country", async () => {
    const response = await post(profileAction, "/account/profile", "distributor@example.com", {
      phone_country: "US",
      phone: "12",
    });
    expect((await response.json()).fieldErrors).toEqual({
      ...cannotBeEmpty("first_name", "last_name", "email", "company", "line1", "city", "state", "zip"),
      phone: "Invalid phone number.",
      country: "Please select your country.",
    });
  });

  it("fails with the provider's message when the second update fails, keeping what was typed", async () => {
    await billingFaults.inject("updateBillingInfo", { message: "billing_address[zip] : invalid" });
    const response = await post(profileAction, "/account/profile", "distributor@example.com", address);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.formError).toBe("billing_address[zip] : invalid");
    expect(body.repopulateFields).toMatchObject({ line1: "10 Fleet Street" });
  });

  it("saves contact details and address together and says 'Successfully updated billing profile.'", async () => {
    const response = await post(profileAction, "/account/profile", "distributor@example.com", address);
    expect(await toastOf(response)).toEqual({ kind: "success", message: "Successfully updated billing profile." });
    const {
      billing: { billingProfile, payment },
    } = await (await get(accountLoader, "/account", "distributor@example.com")).json();
    expect(billingProfile).toEqual({
      firstName: "Ravi",
      lastName: "Patel",
      email: "billing@secureline.example",
      phone: "+442079460321",
      company: "SecureLine Resellers",
      vat: null,
    });
    expect(payment.billingAddress).toEqual({
      firstName: "Ravi",
      lastName: "Patel",
      line1: "10 Fleet Street",
      city: "London",
      state: "Greater London",
      zip: "EC4Y 1AA",
      country: "GB",
      countryName: "United Kingdom",
    });
  });

  it("says 'Error fetching billing profile.' (no form) when the customer cannot be read", async () => {
    await billingFaults.inject("retrieveCustomer", { message: "Chargebee is down." });
    expect(
      (await (await get(profileLoader, "/account/profile", "distributor@example.com")).json()).defaults,
    ).toBeNull();
  });
});

describe("the billing profile's VAT number", () => {
  const german = {
    first_name: "Jonas",
    last_name: "Becker",
    email: "jonas@example.de",
    company: "SecureLine Resellers",
    phone_country: "DE",
    phone: "030 901820",
    line1: "Hauptstraße 5",
    city: "Köln",
    state: "NRW",
    zip: "50667",
    country: "DE",
  };
  const vatOf = async () =>
    (await (await get(accountLoader, "/account", "distributor@example.com")).json()).billing.billingProfile.vat;

  it("refuses a malformed number at the field, and any number of a country without VAT numbers", async () => {
    const malformed = await post(profileAction, "/account/profile", "distributor@example.com", {
      ...german,
      vat_number: "DE12345",
    });
    expect(malformed.status).toBe(422);
    const body = await malformed.json();
    expect(body.fieldErrors).toEqual({ vat_number: "Invalid VAT number." });
    expect(body.repopulateFields).toMatchObject({ vat_number: "DE12345", line1: "Hauptstraße 5" });
    const american = await post(profileAction, "/account/profile", "distributor@example.com", {
      ...german,
      phone_country: "US",
      phone: "206 555 0100",
      country: "US",
      vat_number: "DE136695976",
    });
    expect((await american.json()).fieldErrors).toEqual({
      vat_number: "VAT numbers are only kept for customers in the EU, the United Kingdom, Switzerland and Norway.",
    });
  });

  it("checks a well-formed number with the register, keeps it in one written form and says it is valid", async () => {
    const response = await post(profileAction, "/account/profile", "distributor@example.com", {
      ...german,
      vat_number: "de 100 000 008",
    });
    expect(await toastOf(response)).toEqual({ kind: "success", message: "Successfully updated billing profile." });
    expect(await vatOf()).toMatchObject({
      number: "DE100000008",
      status: "valid",
      registerName: "Musterhaus GmbH",
    });
    expect((await get(profileLoader, "/account/profile", "distributor@example.com")).status).toBe(200);
  });

  it("saves a number the register cannot check as 'not yet checked', and a job checks it later", async () => {
    await taxIdFaults.inject("check", { times: "once" });
    const response = await post(profileAction, "/account/profile", "distributor@example.com", {
      ...german,
      vat_number: "DE136695976",
    });
    expect(await toastOf(response)).toEqual({ kind: "success", message: "Successfully updated billing profile." });
    expect(await vatOf()).toMatchObject({ number: "DE136695976", status: "not yet checked", checkedAt: null });
    await runJobs();
    expect(await vatOf()).toMatchObject({ number: "DE136695976", status: "valid" });
    const member = await memberByEmail("distributor@example.com");
    expect(await getBilling().retrieveCustomer(member.organization.billingCustomerId!)).toMatchObject({
      vatNumber: "DE136695976",
      vatNumberStatus: "valid",
      billingAddress: { line1: "Hauptstraße 5", country: "DE" },
    });
  });

  it("removes the number when the field is emptied", async () => {
    await post(profileAction, "/account/profile", "distributor@example.com", { ...german, vat_number: "" });
    expect(await vatOf()).toBeNull();
  });

  it("keeps asking a register that stays down longer than a page would wait, the waits growing to an hour", async () => {
    // The profile's own check and eleven of the job's fail: more runs than a job a customer watches gets.
    await taxIdFaults.inject("check", { times: 12 });
    await post(profileAction, "/account/profile", "distributor@example.com", { ...german, vat_number: "DE136695976" });
    const runner = new JobRunner(JOB_KINDS);
    const waits: number[] = [];
    for (let run = 1; run <= 11; run += 1) {
      await runner.drain();
      const [job] = await db.select().from(jobs).where(eq(jobs.kind, "tax-id-recheck")).orderBy(desc(jobs.createdAt));
      expect(job).toMatchObject({ status: "queued", attempts: run });
      waits.push(job.nextRunAt!.getTime() - Date.now());
      await db
        .update(jobs)
        .set({ nextRunAt: new Date(0) })
        .where(eq(jobs.id, job.id));
    }
    expect(await vatOf()).toMatchObject({ status: "not yet checked" });
    // The eleventh wait is 2^10 times the first, about 17 minutes with the default backoff: past the minute a job
    // a customer watches waits at most, within the hour.
    expect(waits[10]).toBeGreaterThan(60_000);
    expect(waits[10]).toBeLessThanOrEqual(60 * 60_000);
    await runJobs();
    expect(await vatOf()).toMatchObject({ number: "DE136695976", status: "valid" });
  });
});

describe("the shipping address drawer", () => {
  it("requires a name and a street address, and keeps email, phone, company and line2 optional", async () => {
    const response = await post(shippingAction, "/account/shipping", "customer@example.com", {
      phone_country: "US",
      email: "not-an-email",
    });
    expect((await response.json()).fieldErrors).toEqual({
      ...cannotBeEmpty("first_name", "last_name", "line1", "city", "state", "zip", "country"),
      email: "Invalid Email",
    });
  });

  it("saves a different address and goes back to the billing address on request", async () => {
    const shipping = {
      first_name: "Sam",
      last_name: "Lee",
      line1: "9 Dock Road",
      city: "Oakland",
      state: "CA",
      zip: "94607",
      country: "us",
      phone_country: "US",
    };
    await post(shippingAction, "/account/shipping", "customer@example.com", shipping);
    const saved = (await memberByEmail("customer@example.com")).organization;
    expect(saved?.shippingAddress).toMatchObject({
      firstName: "Sam",
      line1: "9 Dock Road",
      country: "US",
      phone: "",
      email: "",
    });
    expect(
      (await (await get(shippingLoader, "/account/shipping", "customer@example.com")).json()).hasShippingAddress,
    ).toBe(true);

    const cleared = await post(shippingAction, "/account/shipping", "customer@example.com", { intent: "clear" });
    expect(await toastOf(cleared)).toMatchObject({ kind: "success" });
    expect((await memberByEmail("customer@example.com")).organization.shippingAddress).toBeNull();
  });
});

describe("the payment step's server side", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    return data;
  };

  it("accepts only a usable card of the user's own", async () => {
    const customer = await memberByEmail("customer@example.com");
    const step = await loadPaymentStep(customer);
    if (step.status !== "ready" || !step.preselectedSourceId) throw new Error("the customer has a card");
    expect(await choosePayment(customer, form({ payment_source_id: step.preselectedSourceId }))).toMatchObject({
      ok: true,
      paymentSourceId: step.preselectedSourceId,
      billingAddress: { line1: "450 Mission Street" },
      shippingAddress: null,
    });
    expect(await choosePayment(customer, form({}))).toEqual({ ok: false, message: "Please select a payment method." });
    const admin = await memberByEmail("admin@example.com");
    const adminStep = await loadPaymentStep(admin);
    if (adminStep.status !== "ready" || !adminStep.preselectedSourceId) throw new Error("the admin added a card above");
    expect(await choosePayment(customer, form({ payment_source_id: adminStep.preselectedSourceId }))).toEqual({
      ok: false,
      message: "Please select a payment method.",
    });
  });

  it("refuses addresses that are not valid, and reports a failed load as 'Error'", async () => {
    const admin = await memberByEmail("admin@example.com");
    const step = await loadPaymentStep(admin);
    expect(step).toMatchObject({ status: "ready", addressesValid: false, billingAddress: null });
    if (step.status !== "ready" || !step.preselectedSourceId) throw new Error("the admin added a card above");
    expect(await choosePayment(admin, form({ payment_source_id: step.preselectedSourceId }))).toEqual({
      ok: false,
      message: "Please make sure billing & shipping address are valid.",
    });
    await billingFaults.inject("listPaymentSources", { message: "Chargebee is down." });
    expect(await loadPaymentStep(admin)).toEqual({ status: "error" });
  });
});
