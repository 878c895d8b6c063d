import type { LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { loader as chooserLoader } from "~/routes/_portal.trial._index";
import { loader as wizardLoader } from "~/routes/_portal.trial.$hubType";
import { action as licenseAction, loader as licenseLoader } from "~/routes/_portal.trial.$hubType.license";
import { action as welcomeAction } from "~/routes/_portal.trial.$hubType.welcome";
import { trials } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { memberByEmail } from "../support/members";
import type * as CardsModule from "~/server/cards/index.server";
import { TRIAL_WIZARDS } from "~/server/trials/trial-wizard.server";
import { formRequest, getRequest, respond } from "../support/requests";
import { demoCookie } from "../support/sign-in";
import { TRIAL_ADDRESS, trialChoices } from "../support/drafts";

/** Which card provider the portal is on: the embedded one unless a test says Stripe. */
const cards = vi.hoisted(() => ({ atStripe: false }));
vi.mock("~/server/cards/index.server", async (importOriginal) => ({
  ...(await importOriginal<typeof CardsModule>()),
  cardsAtStripe: () => cards.atStripe,
}));

/** The trial routes called as Remix calls them, with real Requests on the demo seed: eligibility is the server's. */
const cookieOf = demoCookie;

const CUSTOMER = "customer@example.com";
const DISTRIBUTOR = "distributor@example.com";
type Loader = (args: LoaderFunctionArgs) => Promise<unknown>;
const get = async (loader: Loader, path: string, email: string, params: Record<string, string> = {}) =>
  respond(async () => loader({ request: getRequest(path, await cookieOf(email)), params, context: {} }));

async function giveTrial(email: string) {
  const member = await memberByEmail(email);
  await db.insert(trials).values({
    id: `trial-${email}`,
    ownerId: member.organization.id,
    userId: member.user.id,
    hubType: "onpremise",
    nodes: 5,
    employees: 5,
    duration: 15,
  });
}

beforeEach(async () => {
  cards.atStripe = false;
  await db.delete(trials);
  for (const email of [CUSTOMER, DISTRIBUTOR])
    for (const wizard of Object.values(TRIAL_WIZARDS)) await wizard.clear(await memberByEmail(email));
});

describe("trial eligibility on the server", () => {
  it("sends a customer who has had a trial from any step back to the chooser, which says so", async () => {
    await giveTrial(CUSTOMER);
    expect(await (await get(chooserLoader, "/trial", CUSTOMER)).json()).toMatchObject({ eligible: false });
    const step = await get(wizardLoader, "/trial/cloud/instance", CUSTOMER, { hubType: "cloud" });
    expect(step.status).toBe(302);
    expect(step.headers.get("Location")).toBe("/trial");
    const posted = await respond(async () =>
      welcomeAction({
        request: await formRequest("/trial/onpremise/welcome", {}, { cookie: await cookieOf(CUSTOMER) }),
        params: { hubType: "onpremise" },
        context: {},
      }),
    );
    expect(posted.headers.get("Location")).toBe("/trial");
  });

  it("never refuses a distributor", async () => {
    await giveTrial(DISTRIBUTOR);
    expect(await (await get(chooserLoader, "/trial", DISTRIBUTOR)).json()).toMatchObject({ eligible: true });
    expect((await get(wizardLoader, "/trial/cloud/welcome", DISTRIBUTOR, { hubType: "cloud" })).status).toBe(200);
  });

  it("has no step a wizard does not have, and no third kind of trial", async () => {
    expect((await get(licenseLoader, "/trial/cloud/license", CUSTOMER, { hubType: "cloud" })).status).toBe(404);
    expect((await get(wizardLoader, "/trial/saas/welcome", CUSTOMER, { hubType: "saas" })).status).toBe(404);
  });
});

describe("a bookmarked trial step", () => {
  it("sends a new visitor to the first step not done, then keeps what a step saved", async () => {
    const cookie = await cookieOf(CUSTOMER);
    const early = await get(licenseLoader, "/trial/onpremise/license", CUSTOMER, { hubType: "onpremise" });
    expect(early.headers.get("Location")).toBe("/trial/onpremise/welcome");
    await respond(async () =>
      welcomeAction({
        request: await formRequest("/trial/onpremise/welcome", {}, { cookie }),
        params: { hubType: "onpremise" },
        context: {},
      }),
    );
    const refused = await respond(async () =>
      licenseAction({
        request: await formRequest(
          "/trial/onpremise/license",
          { nodes: "0", employees: "9", duration: "40", startDate: "2000-01-01" },
          { cookie },
        ),
        params: { hubType: "onpremise" },
        context: {},
      }),
    );
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await refused.json())).toContain("Must be between 15 and 30");
    // A start far ahead, or a day no calendar has, is refused at the field: no job is ever queued with it.
    for (const [startDate, message] of [
      ["9999-12-31", "The start date must be within 90 days from today."],
      ["2027-02-30", "This is an invalid date"],
    ]) {
      const startRefused = await respond(async () =>
        licenseAction({
          request: await formRequest(
            "/trial/onpremise/license",
            { nodes: "5", employees: "9", duration: "20", startDate },
            { cookie },
          ),
          params: { hubType: "onpremise" },
          context: {},
        }),
      );
      expect(startRefused.status, startDate).toBe(422);
      expect((await startRefused.json()).fieldErrors, startDate).toEqual({ startDate: message });
    }
    const today = new Date().toISOString().slice(0, 10);
    const saved = await respond(async () =>
      licenseAction({
        request: await formRequest(
          "/trial/onpremise/license",
          { nodes: "7", employees: "9", duration: "15", startDate: today },
          { cookie },
        ),
        params: { hubType: "onpremise" },
        context: {},
      }),
    );
    expect(saved.headers.get("Location")).toBe("/trial/onpremise/hardware");
    const { data: draft } = await TRIAL_WIZARDS.onpremise.read(await memberByEmail(CUSTOMER));
    expect(draft).toMatchObject({
      nodes: 7,
      employees: 9,
      duration: 15,
      startDate: today,
      completed: ["welcome", "license"],
    });
    const { organization } = await memberByEmail(CUSTOMER);
    expect(await db.select().from(trials).where(eq(trials.ownerId, organization.id))).toHaveLength(0);
  });
});

describe("the step before the trial's payment", () => {
  /** Completes the address step of an on-premise trial with `tokens` ordered; the redirect it answers. */
  async function completeAddress(tokens: number) {
    const member = await memberByEmail(CUSTOMER);
    const wizard = TRIAL_WIZARDS.onpremise;
    await wizard.save(member, { ...trialChoices(), tokens, completed: ["welcome", "license", "hardware"] });
    const response = await wizard.complete(member, "address", { address: TRIAL_ADDRESS });
    return { to: response.headers.get("Location"), document: response.headers.has("X-Remix-Reload-Document") };
  }

  it("with Stripe and hardware, goes on to it as a new document, whose policy lets Stripe.js load", async () => {
    cards.atStripe = true;
    expect(await completeAddress(1)).toEqual({ to: "/trial/onpremise/payment", document: true });
  });

  it("goes on within the page without hardware, or with the embedded card form", async () => {
    cards.atStripe = true;
    expect(await completeAddress(0)).toEqual({ to: "/trial/onpremise/payment", document: false });
    cards.atStripe = false;
    expect(await completeAddress(1)).toEqual({ to: "/trial/onpremise/payment", document: false });
  });
});
