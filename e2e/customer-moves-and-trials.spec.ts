import { randomUUID } from "node:crypto";
import { addRenewal, organizationIdOf, withDatabase } from "./database";
import { DEMO, expect, signInAs, test } from "./fixtures";
import { next } from "./purchase-steps";
import { fillTrialAddress } from "./trial-steps";

/**
 * With JavaScript and without: GateKeeper's administrator sees a distributor's end customers beside it and moves
 * one to another distributor (refused first without a choice, the message at the field), whose renewals the old one
 * still sees as it still pays them; a distributor starts a
 * trial for one of its customers from the customer's page, and the trial's license shows there. Tests of a worker
 * share its portal: each adds the organizations it changes, by names no other test uses.
 */

const suffix = () => randomUUID().slice(0, 6).toUpperCase();

/** A new end customer of the demo distributor, and (when asked) another distributor: their ids. */
async function addOrganizations(databaseUrl: string, customerName: string, resellerName?: string) {
  return withDatabase(databaseUrl, async (db, t) => {
    const customerId = randomUUID();
    await db.insert(t.organizations).values({
      id: customerId,
      name: customerName,
      managedBy: await organizationIdOf(db, DEMO.distributor),
    });
    const resellerId = randomUUID();
    if (resellerName)
      await db.insert(t.organizations).values({ id: resellerId, name: resellerName, customerType: "distributor" });
    return { customerId, resellerId };
  });
}

test.describe("end customers", () => {
  // Without JavaScript a refused form comes back as 422 with its message.
  test.use({ expectedHttpErrors: [422] });

  test("are moved by GateKeeper's administrator to another distributor", async ({ page, portal }) => {
    const customerName = `Moving Clinic ${suffix()}`;
    const resellerName = `Second Reseller ${suffix()}`;
    const { customerId } = await addOrganizations(portal.databaseUrl, customerName, resellerName);
    const licenseId = `GK-SLR-2026-${suffix()}`;
    await withDatabase(portal.databaseUrl, (db, t) =>
      addRenewal(db, t, { licenseeId: customerId, externalLicenseId: licenseId, inDays: 20 }),
    );
    await signInAs(page, DEMO.admin);

    // End customers are counted beside their distributor, not listed among every organization.
    await page.goto("/admin/customers");
    await expect(page.getByRole("link", { name: customerName })).toHaveCount(0);
    // The list is paged, and organizations this worker's other tests opened may come first: it is searched.
    await page.goto("/admin/customers?q=SecureLine+Resellers");
    const list = page.getByRole("table").filter({ hasText: "SecureLine Resellers" });
    await expect(list.getByRole("link", { name: /end customers of SecureLine Resellers/ })).toBeVisible();
    await list.getByRole("link", { name: /end customers of SecureLine Resellers/ }).click();
    await expect(page.getByRole("heading", { level: 2, name: "SecureLine Resellers" })).toBeVisible();
    await expect(page.getByRole("table", { name: "End customers" })).toBeVisible();

    await page.goto(`/admin/customers/${customerId}`);
    await expect(page.getByRole("heading", { level: 2, name: customerName })).toBeVisible();
    await expect(page.getByText("end customer of SecureLine Resellers")).toBeVisible();
    const form = page.getByRole("region", { name: "Move to another reseller" });
    await form.getByRole("button", { name: "Move" }).click();
    await expect(page.getByText("Choose the distributor to move this customer to.")).toBeVisible();

    await page.getByLabel("New reseller").selectOption({ label: resellerName });
    await page.getByRole("button", { name: "Move" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/customers/${customerId}$`));
    await expect(page.getByText(`${customerName} is now an end customer of ${resellerName}.`)).toBeVisible();
    await expect(page.getByRole("link", { name: resellerName, exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "SecureLine Resellers", exact: true })).toHaveCount(0);

    // The license SecureLine bought for the customer still renews at its cost: its renewals view lists it, named as
    // moved, with no link to a customer page it no longer has.
    await signInAs(page, DEMO.distributor);
    await page.goto("/customers/renewals");
    const row = page.getByRole("row").filter({ hasText: licenseId });
    await expect(row).toContainText(`${customerName} (moved to another distributor)`);
    await expect(row.getByRole("link", { name: customerName })).toHaveCount(0);
    await expect(row.getByRole("link", { name: `Turn off auto-renew of license ${licenseId}` })).toBeVisible();
  });

  test("get a trial their distributor starts for them from their page", async ({ page, portal }) => {
    test.setTimeout(90_000);
    const customerName = `Trial Clinic ${suffix()}`;
    const { customerId } = await addOrganizations(portal.databaseUrl, customerName);
    await signInAs(page, DEMO.distributor);

    await page.goto(`/customers/${customerId}`);
    await page.getByRole("link", { name: "Start a trial" }).click();
    await expect(page).toHaveURL(new RegExp(`/trial\\?customer=${customerId}$`));
    await expect(page.getByText(`The trial's license is ${customerName}'s.`)).toBeVisible();
    await page.getByRole("link", { name: "On-Premise GateKeeper Hub" }).click();
    await expect(page).toHaveURL(new RegExp(`/trial/onpremise/welcome\\?customer=${customerId}$`));
    await next(page, "Start");
    await expect(page).toHaveURL(new RegExp(`/trial/onpremise/license\\?customer=${customerId}$`));
    await page.locator('input[name="nodes"]').fill("5");
    await page.locator('input[name="employees"]').fill("40");
    await page.locator('input[name="duration"]').fill("20");
    await next(page, "Next: Hardware");
    await expect(page).toHaveURL(new RegExp(`/hardware\\?customer=${customerId}$`));
    await next(page, "Next: Address");
    await expect(page).toHaveURL(new RegExp(`/address\\?customer=${customerId}$`));
    await fillTrialAddress(page);
    await next(page, "Next: Payment");
    await expect(page).toHaveURL(new RegExp(`/payment\\?customer=${customerId}$`));
    await next(page, "Next: Review");
    await expect(page).toHaveURL(new RegExp(`/review\\?customer=${customerId}$`));
    await next(page, "Order Confirmation");
    await expect(page).toHaveURL(new RegExp(`/order\\?customer=${customerId}$`));
    await next(page, "Build My Trial");
    await expect(page).toHaveURL(/\/trial\/runs\/[\w-]+$/);
    await expect(page.getByText("Download Your Trial License")).toBeVisible({ timeout: 30_000 });

    await page.goto(`/customers/${customerId}`);
    const licenses = page.getByRole("table", { name: "Licenses" });
    await expect(licenses).toContainText("(trial)");
    await expect(licenses).toContainText("GK-TRIAL-");
  });
});
