import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { withDatabase } from "./database";
import { READY, walkAndDeploy } from "./cloud-hub-steps";
import { DEMO, DEMO_PASSWORD, expect, signInAs, test } from "./fixtures";
import { acceptAsNewPerson, inviteTechnicalContact, linkFromOutbox } from "./invitations";

/**
 * A reseller hands an end customer over to its people: SecureLine Resellers invites Harbor Dental Group's
 * Technical contact from the customer's page; they accept the mailed link, download the license bought for Harbor,
 * deploy a cloud Hub with it, and are refused (403, naming the reseller) what the reseller does for them and the
 * reseller's other customers; the reseller removes them.
 */
const HARBOR = "Harbor Dental Group";
const HARBOR_LICENSE = "GK-SLR-2026-0101";
const MANAGED = "Managed by SecureLine Resellers. Contact them to change this license.";

/**
 * Harbor's cloud license free again (unused, on no Hub at the simulator), so a Hub can be made from it; with the
 * ids the test asks for.
 */
const prepare = (databaseUrl: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    await db
      .update(t.licenses)
      .set({ isUsed: false, hubJobId: null })
      .where(eq(t.licenses.externalLicenseId, HARBOR_LICENSE));
    await db.delete(t.hubLicenses).where(eq(t.hubLicenses.licenseId, HARBOR_LICENSE));
    const [license] = await db.select().from(t.licenses).where(eq(t.licenses.externalLicenseId, HARBOR_LICENSE));
    const named = async (name: string) =>
      (await db.select().from(t.organizations).where(eq(t.organizations.name, name)))[0].id;
    return {
      harborId: await named(HARBOR),
      meridianId: await named("Meridian Law LLP"),
      subscriptionId: license.subscriptionId ?? "",
    };
  });

test.describe("handing an end customer over", () => {
  test.use({ expectedHttpErrors: [403] });

  test("the reseller invites the customer's Technical contact, who downloads its license, deploys a Hub, is refused the reseller's part, and is removed", async ({
    page,
    browser,
    baseURL,
    portal,
    javaScriptEnabled,
  }) => {
    test.setTimeout(150_000);
    const { harborId, meridianId, subscriptionId } = await prepare(portal.databaseUrl);
    const email = `it-${randomUUID().slice(0, 8)}@harbordental.example`;

    // The reseller invites from the customer's page; only Technical contact and Viewer are offered.
    await signInAs(page, DEMO.distributor);
    await page.goto(`/customers/${harborId}`);
    const invite = page.getByRole("region", { name: `Invite someone of ${HARBOR}` });
    await expect(invite.getByLabel("Role").getByRole("option")).toHaveText(["Technical contact", "Viewer"]);
    await inviteTechnicalContact(page, invite, email);
    await expect(page.getByRole("table", { name: "Open invitations" })).toContainText(email);

    // The mail names the end customer; accepting makes a member of it.
    const link = await linkFromOutbox(
      browser,
      baseURL ?? "",
      email,
      `You are invited to ${HARBOR} on the GateKeeper Portal`,
      "/invitations",
    );
    const { context, person } = await acceptAsNewPerson(
      browser,
      { baseURL, javaScriptEnabled },
      link,
      HARBOR,
      ["Ines", "Tech"],
      DEMO_PASSWORD,
    );
    await expect(person.getByText(`${HARBOR} · Technical contact`)).toBeVisible();

    // Its licenses: the file downloads; what changes the license says whom to ask.
    await person.goto("/licenses");
    const row = person.getByRole("row").filter({ hasText: HARBOR_LICENSE });
    await expect(row).toContainText(MANAGED);
    // Whom to ask to move to another reseller.
    await expect(person.getByText(`${HARBOR} is managed by SecureLine Resellers`)).toContainText(
      "only GateKeeper staff move a customer",
    );
    await expect(row.getByRole("link", { name: /^Add Users/ })).toHaveCount(0);
    await expect(row.getByRole("link", { name: /auto-renew/ })).toHaveCount(0);
    const download = person.waitForEvent("download");
    await row.getByRole("link", { name: `Download license ${HARBOR_LICENSE}` }).click();
    expect((await download).suggestedFilename()).toBe(`gatekeeper-license-${HARBOR_LICENSE}.json`);

    // A cloud Hub made from it, listed among its Hubs.
    const subdomain = `harbor-handover-${javaScriptEnabled ? "js" : "nojs"}`;
    await person.goto("/hubs/new/url");
    await walkAndDeploy(person, subdomain, HARBOR);
    await expect(person.getByText(READY)).toBeVisible({ timeout: 30_000 });
    await person.goto("/hubs");
    await expect(person.getByRole("row", { name: new RegExp(subdomain) })).toContainText("Cloud");

    // What the reseller does for it, and the reseller's other customers: 403 with the reason.
    for (const [path, reason] of [
      [`/licenses/${subscriptionId}/update/product`, MANAGED],
      ["/account/cards/new", MANAGED],
      ["/account/invoices", MANAGED],
      ["/store/subscribe/plan", MANAGED],
      [`/customers/${meridianId}`, "End customers are only for GateKeeper distributors."],
    ]) {
      const response = await person.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(person.getByText(reason).first()).toBeVisible();
    }

    // The reseller removes them: their session in it ends at once.
    await page.goto(`/customers/${harborId}`);
    // The Hub is the reseller's too, as the license it was made from: its customer's page lists it.
    await expect(page.getByRole("table", { name: "Hub deployments" })).toContainText(subdomain);
    await page.getByRole("button", { name: `Remove ${email}` }).click();
    await expect(page.getByText(`The person was removed from ${HARBOR}, and signed out of it.`)).toBeVisible();
    await expect(page.getByRole("table", { name: "People" })).toHaveCount(0);
    await person.goto("/licenses");
    await expect(person).toHaveURL(/\/login/);
    await context.close();
  });
});
