import { createPublicKey, randomUUID, verify } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { insertAccount, withDatabase } from "./database";
import { DEMO, expect, expectAccessible, signInAs, test } from "./fixtures";

/**
 * The licenses page: five rows a page behind plain `?page=` links, signed license files
 * that verify with the public key the portal serves, and nobody else's license, with JavaScript and without.
 */

const DAY = 24 * 60 * 60 * 1000;

/** A new customer owning `count` trial licenses, a day apart (GK-E2E-…-00 the oldest), signed in. */
async function signInWithLicenses(page: Page, databaseUrl: string, count: number) {
  const email = `licenses-${randomUUID().slice(0, 8)}@example.com`;
  const userId = randomUUID();
  const prefix = `GK-E2E-${userId.slice(0, 6).toUpperCase()}`;
  await withDatabase(databaseUrl, async (db, t) => {
    await insertAccount(db, {
      id: userId,
      email,
      firstName: "Morgan",
      lastName: "Lee",
    });
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < count; i++) {
      const id = `${prefix}-${String(i).padStart(2, "0")}`;
      const file = JSON.stringify({ protected: "e30", payload: "e30", signature: `${id}-signature` });
      await db.insert(t.licenses).values({
        id: randomUUID(),
        ownerId: userId,
        externalLicenseId: id,
        name: "Paging Clinics",
        nodes: 5,
        planType: "core",
        type: "trial",
        validFrom: new Date(start + i * DAY),
        validTo: new Date(start + (i + 400) * DAY),
        licenseCode: file,
      });
    }
  });
  await signInAs(page, email);
  return prefix;
}

test.describe("the licenses page", () => {
  test("pages five licenses at a time through plain links", async ({ page, portal, javaScriptEnabled }) => {
    const prefix = await signInWithLicenses(page, portal.databaseUrl, 7);
    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Licenses", exact: true }).click();
    const rows = page.getByRole("table").getByRole("row");
    // A header row, then the five newest.
    await expect(rows).toHaveCount(6);
    await expect(rows.nth(1)).toContainText(`${prefix}-06`);
    await expect(page.getByText("1-5 of 7 items")).toBeVisible();
    const pages = page.getByRole("navigation", { name: "Licenses pages" });
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/licenses\?page=2$/);
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(2)).toContainText(`${prefix}-00`);
    await expect(page.getByText("6-7 of 7 items")).toBeVisible();
    // Keys are shortened to 15 characters and dots; dates are MM/DD/YYYY.
    await expect(rows.nth(2)).toContainText(`${`${prefix}-00-signature`.slice(0, 15)}...`);
    await expect(rows.nth(2)).toContainText("01/01/2026");
    if (javaScriptEnabled) await expectAccessible(page);
    await pages.getByRole("link", { name: "Page 1" }).click();
    await expect(page).toHaveURL(/\/licenses$/);
    await expect(rows).toHaveCount(6);
  });

  test("downloads a license file that verifies with the public key the portal serves", async ({ page, request }) => {
    await signInAs(page, DEMO.customer);
    await page.goto("/licenses");
    const row = page.getByRole("row", { name: /GK-NWC-2026-0001/ });
    await expect(row.getByRole("link", { name: "Add Users to license GK-NWC-2026-0001" })).toHaveAttribute(
      "href",
      "/licenses/sub_demo_core_monthly/update/product",
    );
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      row.getByRole("link", { name: "Download license GK-NWC-2026-0001" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("gatekeeper-license-GK-NWC-2026-0001.json");
    const file = JSON.parse(await readFile(await download.path(), "utf8")) as Record<string, string>;

    const pem = await (await request.get("/license-public-key.pem")).text();
    const signed = Buffer.from(`${file.protected}.${file.payload}`);
    expect(verify(null, signed, createPublicKey(pem), Buffer.from(file.signature, "base64url"))).toBe(true);
    const terms = JSON.parse(Buffer.from(file.payload, "base64url").toString("utf8")) as Record<string, unknown>;
    expect(terms).toMatchObject({ id: "GK-NWC-2026-0001", organization: "Northwind Clinics", users: 10, plan: "core" });
    // One changed user makes the signature fail.
    const forged = Buffer.from(JSON.stringify({ ...terms, users: 11 })).toString("base64url");
    expect(
      verify(
        null,
        Buffer.from(`${file.protected}.${forged}`),
        createPublicKey(pem),
        Buffer.from(file.signature, "base64url"),
      ),
    ).toBe(false);
  });
});

test.describe("another account's license", () => {
  test.use({ expectedHttpErrors: [404] });

  test("is not found", async ({ page, portal }) => {
    const [{ id: licenseId }] = await withDatabase(portal.databaseUrl, (db, t) =>
      db.select({ id: t.licenses.id }).from(t.licenses).where(eq(t.licenses.externalLicenseId, "GK-NWC-2026-0001")),
    );
    await signInAs(page, DEMO.distributor);
    const response = await page.goto(`/licenses/${licenseId}/download`);
    expect(response?.status()).toBe(404);
  });
});
