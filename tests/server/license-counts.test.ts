import { randomUUID } from "node:crypto";
import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pageCount } from "~/domain/pagination";
import { sqlitePlan } from "../support/query-plan";
import { engine, licenseCounts, licenses, organizations } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { saveSubscriptionCopy } from "~/server/subscriptions/copies.server";
import { licenseFollowsSubscription } from "~/server/subscriptions/license-follows.server";
import { licenseRow } from "~/server/subscriptions/license-issuing.server";
import {
  countLicensesByStatus,
  createLicenseForSubscription,
  licensePage,
  licenseTotal,
} from "~/server/subscriptions/licenses.server";
import { createTrialLicense } from "~/server/trials/trials.server";
import { findOrganization } from "~/server/accounts/organizations.server";
import { allOrganizationsForAdmin } from "../support/organization-totals";
import { subscriptionFixture } from "../support/billing-copies";
import { rerunMigration } from "../support/sqlite-migrations";

const DAY = 24 * 60 * 60 * 1000;

/** A new customer (an organization) with no licenses. */
async function newOwner(): Promise<string> {
  const id = randomUUID();
  await db.insert(organizations).values({ id, name: "Counting Ltd" });
  return id;
}

/** `n` trial licenses for `ownerId`; `validFrom(i)` gives each one's start (ties allowed). */
async function addLicenses(ownerId: string, n: number, validFrom: (i: number) => number) {
  const rows = Array.from({ length: n }, (_, i) =>
    licenseRow(ownerId, {
      externalLicenseId: `GK-COUNT-${ownerId.slice(0, 8)}-${String(i).padStart(3, "0")}`,
      name: `Office ${i}`,
      nodes: 1 + (i % 7),
      planType: "core",
      type: "trial",
      hasCloudSupport: false,
      validFrom: new Date(validFrom(i)),
      // Every third one expired.
      validTo: new Date(i % 3 === 2 ? Date.now() - DAY : Date.now() + 100 * DAY),
    }),
  );
  await db.insert(licenses).values(rows);
}

/** What the owner holds, counted the slow way. */
async function counted(ownerId: string) {
  const [row] = await db.select({ n: count() }).from(licenses).where(eq(licenses.ownerId, ownerId));
  return row?.n ?? 0;
}

describe("an owner's license total (license_counts, kept by triggers)", () => {
  it("is 0 for an owner who never held a license, and follows inserts and deletes", async () => {
    const owner = await newOwner();
    expect(await licenseTotal(owner)).toBe(0);
    await addLicenses(owner, 12, (i) => Date.UTC(2026, 0, 1 + i));
    expect(await licenseTotal(owner)).toBe(12);
    await db.delete(licenses).where(eq(licenses.externalLicenseId, `GK-COUNT-${owner.slice(0, 8)}-003`));
    expect(await licenseTotal(owner)).toBe(11);
    await db.delete(licenses).where(eq(licenses.ownerId, owner));
    expect(await licenseTotal(owner)).toBe(0);
  });

  it("counts a purchase once, even when the order's step runs again, and not an update of its terms", async () => {
    const owner = await newOwner();
    const order = {
      ownerId: owner,
      subscriptionId: `sub_counts_${owner}`,
      name: "Counting Ltd",
      nodes: 5,
      planType: "core" as const,
      hasCloudSupport: false,
      validTo: null,
    };
    await createLicenseForSubscription(order);
    expect(await licenseTotal(owner)).toBe(1);
    // A resumed order job: the unique subscription index makes the insert do nothing.
    await createLicenseForSubscription(order);
    expect(await licenseTotal(owner)).toBe(1);
    // The subscription changed at the provider: the license follows it, and is still one.
    const account = { ownerId: owner, customerId: "cust_fixture" };
    await saveSubscriptionCopy(
      account,
      subscriptionFixture({ id: order.subscriptionId, planId: "advanced-monthly", planQuantity: 20 }),
    );
    expect(await licenseFollowsSubscription(account, order.subscriptionId)).toMatchObject({ resigned: true });
    expect(await licenseTotal(owner)).toBe(1);
    expect(await countLicensesByStatus({ id: owner, managedBy: null })).toEqual({ active: 1, expired: 0 });
  });

  it("counts a trial's license", async () => {
    const owner = await newOwner();
    const organization = (await findOrganization(owner))!;
    const request = {
      id: randomUUID(),
      organization,
      hubType: "cloud" as const,
      nodes: 10,
      startDate: new Date().toISOString().slice(0, 10),
      duration: 30,
    };
    await createTrialLicense(request);
    await createTrialLicense(request);
    expect(await licenseTotal(owner)).toBe(1);
  });

  it("moves with a license that changes owner, and goes with a deleted owner", async () => {
    const [from, to] = [await newOwner(), await newOwner()];
    const totals = () => Promise.all([licenseTotal(from), licenseTotal(to)]);
    await addLicenses(from, 3, (i) => Date.UTC(2026, 1, 1 + i));
    await db
      .update(licenses)
      .set({ ownerId: to })
      .where(eq(licenses.externalLicenseId, `GK-COUNT-${from.slice(0, 8)}-001`));
    expect(await totals()).toEqual([2, 1]);
    // Updating other columns leaves both alone.
    await db.update(licenses).set({ isUsed: true }).where(eq(licenses.ownerId, from));
    expect(await totals()).toEqual([2, 1]);
    await db.delete(organizations).where(eq(organizations.id, from));
    expect(await db.select().from(licenseCounts).where(eq(licenseCounts.ownerId, from))).toEqual([]);
    expect(await licenseTotal(to)).toBe(1);
  });

  it("matches a count of every owner's licenses, the demo accounts' included", async () => {
    const totals = await db.select().from(licenseCounts);
    const grouped = await db.select({ ownerId: licenses.ownerId, n: count() }).from(licenses).groupBy(licenses.ownerId);
    for (const { ownerId, n } of grouped) expect(totals.find((row) => row.ownerId === ownerId)?.total).toBe(n);
    expect(totals.filter((row) => row.total !== 0)).toHaveLength(grouped.length);
    // The admin portal's organization list reads the same totals; an owner without a row holds none.
    const listed = await allOrganizationsForAdmin();
    for (const organization of listed) {
      expect(organization.licenses).toBe(grouped.find((row) => row.ownerId === organization.id)?.n ?? 0);
    }
    expect(listed.some((organization) => organization.licenses === 0)).toBe(true);
  });

  // A SQLite migration's data step; tests/postgres/license-counts.test.ts runs PostgreSQL's.
  it.skipIf(engine === "postgres")(
    "is filled for the licenses already there by the migration that adds the triggers",
    async () => {
      const owner = await newOwner();
      await addLicenses(owner, 4, (i) => Date.UTC(2026, 2, 1 + i));
      // The database as it was before that migration: the table (0009) empty, no triggers.
      rerunMigration("0010_license_counts_triggers.sql", "license_counts_after_", ["DELETE FROM license_counts"]);
      expect(await licenseTotal(owner)).toBe(4);
      await addLicenses(await newOwner(), 1, () => Date.UTC(2026, 3, 1));
      expect(await licenseTotal(owner)).toBe(await counted(owner));
    },
  );
});

describe("a page of the user's licenses", () => {
  it("gives every license once over its pages, newest first with the id breaking ties, and the total", async () => {
    const owner = await newOwner();
    // 23 licenses, started on 9 different days: many share a start, so the order rests on the id too.
    await addLicenses(owner, 23, (i) => Date.UTC(2025, 5, 1 + (i % 9)));
    const expected = (
      await db
        .select({ id: licenses.id })
        .from(licenses)
        .where(eq(licenses.ownerId, owner))
        .orderBy(sql`${licenses.validFrom} desc, ${licenses.id} desc`)
    ).map((row) => row.id);
    const now = new Date();
    const first = await licensePage({ id: owner, managedBy: null }, 1, 5, now);
    expect(first.total).toBe(23);
    const pages = pageCount(first.total, 5);
    expect(pages).toBe(5);
    const shown = await Promise.all(
      Array.from({ length: pages }, (_, index) => licensePage({ id: owner, managedBy: null }, index + 1, 5, now)),
    );
    expect(shown.map((page) => page.licenses.length)).toEqual([5, 5, 5, 5, 3]);
    expect(shown.flatMap((page) => page.licenses.map((license) => license.id))).toEqual(expected);
    expect(shown.every((page) => page.total === 23)).toBe(true);
    expect((await licensePage({ id: owner, managedBy: null }, 6, 5, now)).licenses).toEqual([]);
  });

  it("shows each row's terms: key, derived status and days left, and only the columns the page needs", async () => {
    const owner = await newOwner();
    await addLicenses(owner, 3, (i) => Date.UTC(2026, 0, 10 + i));
    const now = new Date();
    const { licenses: rows } = await licensePage({ id: owner, managedBy: null }, 1, 5, now);
    expect(rows.map((row) => row.status)).toEqual(["expired", "active", "active"]);
    expect(rows[1]).toMatchObject({
      name: "Office 1",
      nodes: 2,
      planType: "core",
      type: "trial",
      subscriptionId: null,
    });
    expect(rows[1].daysLeft).toBeGreaterThan(98);
    expect(rows[1].key.length).toBeGreaterThan(15);
    expect(Object.keys(rows[0]).sort()).toEqual(
      [
        "daysLeft",
        "externalLicenseId",
        "hubUploadProblem",
        "id",
        "key",
        "licenseCode",
        "name",
        "nodes",
        "ownerId",
        "payableInvoiceId",
        "planType",
        "poNumber",
        "quoteNumber",
        "renewal",
        "status",
        "subscriptionId",
        "type",
        "validFrom",
        "validTo",
      ].sort(),
    );
  });

  // SQLite's query plan; on PostgreSQL the planner's choice depends on the table's statistics.
  it.skipIf(engine === "postgres")(
    "reads the total off license_counts and the page off the owner's index, without a sort",
    () => {
      const plan = (query: string) => sqlitePlan(query, "someone");
      expect(plan("select total from license_counts where owner_id = ?")).toContain(
        "USING INDEX sqlite_autoindex_license_counts_1",
      );
      const page = plan(
        "select id from licenses where owner_id = ? order by valid_from desc, id desc limit 5 offset 5",
      );
      expect(page).toContain("licenses_owner_valid_from_idx");
      expect(page).not.toContain("TEMP B-TREE");
    },
  );
});
