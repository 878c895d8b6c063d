import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POLICY } from "~/domain/access-policy";
import { isoDay } from "~/domain/trial-wizard";
import { loader as customerLoader } from "~/routes/_portal.customers.$customerId._index";
import { loader as chooserLoader } from "~/routes/_portal.trial._index";
import { action as orderAction } from "~/routes/_portal.trial.$hubType.order";
import { loader as welcomeLoader } from "~/routes/_portal.trial.$hubType.welcome";
import { db } from "~/server/platform/database/db.server";
import { hubInstallations, licenses, organizations } from "~/server/platform/database/tables.server";
import { sealSecret } from "~/server/platform/wizards/sealed.server";
import { trialOrder, trialWizardFor } from "~/server/trials/trial-wizard.server";
import { runJobs } from "../support/jobs";
import { memberByEmail } from "../support/members";
import { openRoute as open, postRoute as post } from "../support/requests";
import { freshSession } from "../support/sign-in";

/**
 * A distributor starts a trial for one of its end customers (`?customer=` on every step): the trial's license, and
 * its cloud Hub, are the customer's (licensee), the distributor's trial rules apply, and the customer's page shows
 * them. Another distributor's customer is a 404, and only a distributor's members who may start trials ask.
 */

async function organizationNamed(name: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.name, name));
  if (!row) throw new Error(`No organization is called ${name}.`);
  return row;
}

describe("a trial for an end customer", { timeout: 120_000 }, () => {
  it("is the customer's: its license and cloud Hub, on the customer's page; the distributor starts any number", async () => {
    const member = await memberByEmail("distributor@example.com");
    const cookie = await freshSession("distributor@example.com");
    const alpine = await organizationNamed("Alpine Logistics AG");

    const chooser = await (await open(chooserLoader, `/trial?customer=${alpine.id}`, cookie)).json();
    expect(chooser).toMatchObject({ eligible: true, customer: { id: alpine.id, name: "Alpine Logistics AG" } });
    expect(chooser.choices.customers.map((choice: { name: string }) => choice.name)).toContain("Meridian Law LLP");

    for (const round of [1, 2]) {
      const { wizard } = await trialWizardFor(member, "cloud", alpine.id);
      await wizard.save(member, {
        nodes: 5 + round,
        employees: 40,
        startDate: isoDay(new Date()),
        duration: 20,
        tokens: 0,
        sensors: 0,
        address: {
          name: "Ada Alpine",
          company: "Alpine Logistics AG",
          street: "1 Bahnhofstrasse",
          city: "Zurich",
          state: "ZH",
          zipcode: "8001",
          country: "CH",
        },
        paymentSourceId: null,
        subdomain: `alpine-${randomUUID().slice(0, 8)}`,
        administrator: {
          userName: "alpine-admin",
          firstName: "Ada",
          lastName: "Alpine",
          phoneNumber: "",
          email: "ada@alpine.example",
        },
        sealedPassword: sealSecret("Secret123"),
        completed: ["welcome", "instance", "admin", "hardware", "address", "payment", "review"],
      });
      const { key } = await trialOrder(member, "cloud", await wizard.read(member), alpine.id);
      // A confirmation of the customer's draft is not one of the distributor's own trial.
      const { wizard: own } = await trialWizardFor(member, "cloud", null);
      expect((await own.read(member)).id).not.toBe((await wizard.read(member)).id);

      const placed = await post(
        orderAction,
        `/trial/cloud/order?customer=${alpine.id}`,
        { trialKey: key!, intent: "build" },
        cookie,
        { hubType: "cloud" },
      );
      expect(placed.status).toBe(302);
      const jobId = placed.headers.get("Location")!.split("/").at(-1)!;
      await runJobs();
      const [license] = await db.select().from(licenses).where(eq(licenses.id, jobId));
      expect(license).toMatchObject({
        type: "trial",
        ownerId: member.organization.id,
        licenseeId: alpine.id,
        name: "Alpine Logistics AG",
        nodes: 5 + round,
      });
      const [hub] = await db
        .select()
        .from(hubInstallations)
        .where(eq(hubInstallations.ownerId, member.organization.id));
      expect(hub).toBeDefined();
      const hubs = await db.select().from(hubInstallations).where(eq(hubInstallations.licenseeId, alpine.id));
      expect(hubs.length).toBeGreaterThanOrEqual(round);
    }

    const page = await (
      await open(customerLoader, `/customers/${alpine.id}`, cookie, { customerId: alpine.id })
    ).json();
    expect(page.trialTo).toBe(`/trial?customer=${alpine.id}`);
    expect(page.licenses.filter((license: { type: string }) => license.type === "trial")).toHaveLength(2);
    expect(page.hubs.length).toBeGreaterThanOrEqual(2);
  });

  it("is a 404 for another distributor's customer, and refused to whom the policy refuses it", async () => {
    const cookie = await freshSession("distributor@example.com");
    const otherReseller = randomUUID();
    const theirs = randomUUID();
    await db
      .insert(organizations)
      .values({ id: otherReseller, name: "Other Reseller Ltd", customerType: "distributor" });
    await db.insert(organizations).values({ id: theirs, name: "Their Customer AG", managedBy: otherReseller });
    const northwind = await organizationNamed("Northwind Clinics");
    for (const id of [theirs, northwind.id, "no-such-customer"]) {
      const step = await open(welcomeLoader, `/trial/cloud/welcome?customer=${id}`, cookie, { hubType: "cloud" });
      expect(step.status).toBe(404);
      expect((await open(chooserLoader, `/trial?customer=${id}`, cookie)).status).toBe(404);
    }
    const customer = await freshSession("customer@example.com");
    const refused = await open(welcomeLoader, `/trial/cloud/welcome?customer=${theirs}`, customer, {
      hubType: "cloud",
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(POLICY["customers.trials"].onlyFor);
    // Without a customer, the customer's own trial wizard is as before.
    expect((await open(welcomeLoader, "/trial/cloud/welcome", customer, { hubType: "cloud" })).status).not.toBe(403);
  });
});
