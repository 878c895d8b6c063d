import type { Page } from "@playwright/test";
import { and, eq, isNull, like, sql } from "drizzle-orm";
import {
  armFault,
  billingCustomerIdOf,
  clearFaults,
  dropTrigger,
  exhaustJobRetries,
  holdInserts,
  invoicesInOrder,
  refuseInserts,
  releaseHeldInserts,
  withDatabase,
  type TestDatabase,
  type TestTables,
} from "./database";
import { DEMO, expect, servesPortal, signInAs, startPortal, test, type DatabaseEngine } from "./fixtures";
import { confirmationForm, licensesNamed, next, planStep, subscriptionsOf, walkToOrder } from "./purchase-steps";

/**
 * The money rule: a customer is charged exactly what they confirmed, exactly once, whatever
 * they click, go back to, open in two tabs, or whatever fails or restarts in between.
 */
const SUCCESS = "Successfully created your GateKeeper Enterprise recurring license!";

/** The line items of the customer's last invoice, as the JSON the billing engine keeps. */
const lastInvoiceLines = (databaseUrl: string, email: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    const customerId = (await billingCustomerIdOf(db, email)) ?? "";
    const [last] = await db
      .select({ lines: t.billingInvoices.lineItems })
      .from(t.billingInvoices)
      .where(eq(t.billingInvoices.customerId, customerId))
      .orderBy(...invoicesInOrder(t, "newest first"))
      .limit(1);
    return JSON.stringify(last.lines);
  });

test.describe("the rules hold for the whole order", () => {
  test("going back to choose on-premise hosting drops the virtual installation before anything is charged", async ({
    page,
    portal,
  }) => {
    test.setTimeout(90_000);
    await signInAs(page, DEMO.customer);
    await page.goto("/store/subscribe/plan");
    await planStep(page, "Forbidden Add-on Ltd", "2");
    await next(page, "Next: Hardware");
    await next(page, "Next: Support");
    await page.getByRole("checkbox", { name: /Virtual Installation/ }).check();
    for (const label of ["Next: Review", "Next: Billing", "Next: Order"]) await next(page, label);
    await expect(page.getByRole("table")).toContainText("Virtual Installation");

    const stepper = page.getByRole("navigation", { name: "Order steps" });
    await stepper.getByRole("link", { name: "Hosting" }).click();
    await page.getByRole("radio", { name: /On-Premise Hub/ }).check();
    await next(page, "Next: Hardware");
    // With JavaScript the click only starts the submission: wait for its step, or the address bar below would
    // abort it and Order would still be reachable.
    await expect(page).toHaveURL(/\/store\/subscribe\/hardware$/);
    // Order is no longer reachable: it sends back to Support, which says why.
    await page.goto("/store/subscribe/order");
    await expect(page).toHaveURL(/\/store\/subscribe\/support$/);
    await expect(page.getByTestId("step-notice")).toContainText("Installation help was removed from your order.");
    await expect(stepper.getByRole("link", { name: "Order" })).toHaveCount(0);
    await expect(page.getByRole("checkbox", { name: /Virtual Installation/ })).not.toBeChecked();

    for (const label of ["Next: Review", "Next: Billing", "Next: Order"]) await next(page, label);
    await expect(page.getByRole("table")).not.toContainText("Virtual Installation");
    await page.getByRole("link", { name: "Submit Order" }).click();
    await page.getByRole("button", { name: "Purchase" }).click();
    await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 20_000 });
    const lines = await lastInvoiceLines(portal.databaseUrl, DEMO.customer);
    expect(lines).toContain("on-premise-install-monthly");
    expect(lines).not.toContain("virtual-installation");
  });

  test("a license for a cloud Hub cannot be posted with on-premise hosting", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    await page.goto("/store/subscribe/plan?origin=cloud-hubs");
    await planStep(page, "Cloud Only Corp", "2");
    await expect(page.getByRole("radio", { name: /On-Premise Hub/ })).toHaveCount(0);
    const csrf = await page.locator('form input[name="csrf"]').first().inputValue();
    const response = await page.request.post("/store/subscribe/hosting", {
      form: { csrf, hosting: "on-premise" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(422);
    expect(await response.text()).toContain("please choose cloud hosting");
  });
});

test.describe("a confirmation is for exactly one price", () => {
  test("a purchase confirmed in one tab after another tab changed the order is refused with the new total", async ({
    page,
    context,
    portal,
  }) => {
    test.setTimeout(90_000);
    await signInAs(page, DEMO.customer);
    await walkToOrder(page, "Two Tabs Inc", "3");
    await page.getByRole("link", { name: "Submit Order" }).click();
    await expect(page.getByRole("dialog", { name: "Place your order." })).toBeVisible();
    const before = await subscriptionsOf(portal.databaseUrl, DEMO.customer);

    const tabB = await context.newPage();
    await tabB.goto("/store/subscribe/plan");
    await tabB.getByRole("radio", { name: /Ultimate/ }).check();
    await tabB.getByLabel("Number of users").fill("500");
    await next(tabB, "Next: Hosting");
    await expect(tabB.getByRole("heading", { name: "Select Your Preferred GateKeeper Hub Deployment" })).toBeVisible();
    await tabB.close();

    await page.getByRole("button", { name: "Purchase" }).click();
    await expect(
      page.getByText(
        "Your order changed after you reviewed it, and nothing was charged. The total due today is now $4,099.00",
      ),
    ).toBeVisible();
    expect(await subscriptionsOf(portal.databaseUrl, DEMO.customer)).toBe(before);
    // The page now shows the new total; confirming it places that order.
    await expect(page.getByTestId("amount-due")).toHaveText("$4,099.00");
    await page.getByRole("link", { name: "Submit Order" }).click();
    await page.getByRole("button", { name: "Purchase" }).click();
    await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 20_000 });
    expect(await subscriptionsOf(portal.databaseUrl, DEMO.customer)).toBe(before + 1);
  });
});

test.describe("a charge whose answer was lost", () => {
  test.use({ expectedServerErrors: [/"event":"job-step-failed".*"errorKind":"unknown"/] });

  test("is looked up at the billing provider, not charged again", async ({ page, portal }) => {
    test.setTimeout(90_000);
    await signInAs(page, DEMO.customer);
    await walkToOrder(page, "Lost Answer GmbH", "2");
    const before = await subscriptionsOf(portal.databaseUrl, DEMO.customer);
    await withDatabase(portal.databaseUrl, (db, t) =>
      armFault(db, t.billingFaults, { call: "createSubscription", mode: "lose", kind: "unknown", message: "timeout" }),
    );
    await page.getByRole("link", { name: "Submit Order" }).click();
    await page.getByRole("button", { name: "Purchase" }).click();
    await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 20_000 });
    expect(await subscriptionsOf(portal.databaseUrl, DEMO.customer)).toBe(before + 1);
    expect(await licensesNamed(portal.databaseUrl, "Lost Answer GmbH")).toBe(1);
  });
});

test.describe("a charge whose outcome stays unknown", () => {
  test.use({ expectedServerErrors: [/"event":"job-step-failed".*"errorKind":"unknown"/] });

  test("waits as needs attention, is listed for admins, and Try again finds the charge instead of repeating it", async ({
    page,
    browser,
    portal,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, DEMO.customer);
    await walkToOrder(page, "Unknown Outcome SA", "2");
    const before = await subscriptionsOf(portal.databaseUrl, DEMO.customer);
    await withDatabase(portal.databaseUrl, async (db, t) => {
      await armFault(db, t.billingFaults, {
        call: "createSubscription",
        mode: "lose",
        kind: "unknown",
        message: "timeout",
      });
      await armFault(db, t.billingFaults, {
        call: "findSubscriptionByKey",
        mode: "fail",
        kind: "unknown",
        message: "timeout",
        remaining: null,
      });
    });
    try {
      await page.getByRole("link", { name: "Submit Order" }).click();
      await page.getByRole("button", { name: "Purchase" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Checking your payment" })).toBeVisible({
        timeout: 20_000,
      });
      // The runner asks again with backoff, then leaves the job to the customer and the admins.
      const givenUp = () =>
        withDatabase(portal.databaseUrl, async (db, t) => {
          const stuck = await db
            .select({ id: t.jobs.id })
            .from(t.jobs)
            .where(
              and(
                eq(t.jobs.status, "needs_attention"),
                isNull(t.jobs.nextRunAt),
                like(sql`cast(${t.jobs.input} as text)`, "%Unknown Outcome SA%"),
              ),
            )
            .limit(1);
          return stuck.length > 0;
        });
      await expect.poll(givenUp, { timeout: 30_000 }).toBe(true);
      await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Back to your order" })).toHaveCount(0);

      const admin = await browser.newPage({ baseURL: portal.baseURL, javaScriptEnabled: false });
      servesPortal(admin.context(), portal.baseURL);
      await signInAs(admin, DEMO.admin);
      await admin.goto("/admin");
      await expect(admin.getByRole("table")).toContainText("needs attention");
      await admin.close();
    } finally {
      await withDatabase(portal.databaseUrl, (db, t) => clearFaults(db, t.billingFaults));
    }
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 20_000 });
    expect(await subscriptionsOf(portal.databaseUrl, DEMO.customer)).toBe(before + 1);
    expect(await licensesNamed(portal.databaseUrl, "Unknown Outcome SA")).toBe(1);
  });
});

test.describe("a failure after the charge", () => {
  test.use({ expectedServerErrors: [/"event":"job-step-failed".*"step":"create-license"/] });

  test("is retried as the same order (Try again), never as a new purchase", async ({ page, portal }) => {
    test.setTimeout(90_000);
    await signInAs(page, DEMO.customer);
    await walkToOrder(page, "Full Disk Partners", "2");
    const before = await subscriptionsOf(portal.databaseUrl, DEMO.customer);
    await withDatabase(portal.databaseUrl, async (db) => {
      await refuseInserts(db, "full_disk_e2e", "licenses", "database or disk is full");
      // No automatic retries left: the customer sees the failure at once.
      await exhaustJobRetries(db, "no_retries_e2e");
    });
    try {
      await page.getByRole("link", { name: "Submit Order" }).click();
      await page.getByRole("button", { name: "Purchase" }).click();
      await expect(page.getByRole("alert")).toContainText("Your subscription was created and charged once.", {
        timeout: 20_000,
      });
      await expect(page.getByRole("link", { name: "Back to your order" })).toHaveCount(0);
      // A new Purchase of the same draft leads back to this order.
      const progress = page.url();
      await page.goto("/store/subscribe/order?confirm=1");
      await page.getByRole("button", { name: "Purchase" }).click();
      await expect(page).toHaveURL(progress);
    } finally {
      await withDatabase(portal.databaseUrl, async (db) => {
        await dropTrigger(db, "full_disk_e2e");
        await dropTrigger(db, "no_retries_e2e");
      });
    }
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 20_000 });
    expect(await subscriptionsOf(portal.databaseUrl, DEMO.customer)).toBe(before + 1);
    expect(await licensesNamed(portal.databaseUrl, "Full Disk Partners")).toBe(1);
  });
});

test.describe("portals that stop or run side by side", () => {
  /**
   * A portal of the test's own is killed (SIGKILL) while the order is at `stage`, then started again on the
   * same database: the order finishes once, with one subscription and one license.
   */
  async function orderThroughACrash(
    { page, databaseEngine }: { page: Page; databaseEngine: DatabaseEngine },
    organization: string,
    fault: {
      arm: (db: TestDatabase, t: TestTables) => Promise<void>;
      disarm: (db: TestDatabase, t: TestTables) => Promise<void>;
      stage: (databaseUrl: string, before: number) => Promise<void>;
    },
  ) {
    // The first portal waits seconds between a failed step's reruns, so it is still rerunning when it is killed
    // however slow the machine; with the suite's short wait its five automatic runs end before the kill, and the
    // order waits for 'Try again' instead of finishing after the restart.
    const first = await startPortal({ engine: databaseEngine, env: { JOB_BACKOFF_MS: "5000" } });
    let second: Awaited<ReturnType<typeof startPortal>> | null = null;
    try {
      servesPortal(page.context(), first.baseURL);
      await signInAs(page, DEMO.customer);
      await walkToOrder(page, organization, "5", first.baseURL);
      const before = await subscriptionsOf(first.databaseUrl, DEMO.customer);
      await withDatabase(first.databaseUrl, fault.arm);
      await page.getByRole("link", { name: "Submit Order" }).click();
      await page.getByRole("button", { name: "Purchase" }).click();
      await expect(page).toHaveURL(/\/store\/orders\//);
      const progressPath = new URL(page.url()).pathname;
      await fault.stage(first.databaseUrl, before);
      await page.goto("about:blank");
      await first.stop({ signal: "SIGKILL", keepData: true });
      await withDatabase(first.databaseUrl, fault.disarm);

      second = await startPortal({ directory: first.directory });
      await page.goto(`${second.baseURL}${progressPath}`);
      await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 30_000 });
      await page.reload();
      await expect(page.getByText(SUCCESS)).toBeVisible();
      expect(await subscriptionsOf(second.databaseUrl, DEMO.customer)).toBe(before + 1);
      expect(await licensesNamed(second.databaseUrl, organization)).toBe(1);
    } finally {
      await page.goto("about:blank");
      await second?.stop();
      await first.stop({ signal: "SIGKILL" });
    }
  }

  test("a portal killed while the billing provider hangs on the charge finishes the order once", async ({
    page,
    databaseEngine,
  }) => {
    test.setTimeout(120_000);
    await orderThroughACrash({ page, databaseEngine }, "Restart Resilience Inc", {
      arm: (db, t) =>
        armFault(db, t.billingFaults, {
          call: "createSubscription",
          mode: "hang",
          kind: "unknown",
          message: "timeout",
          hangMs: 60_000,
        }),
      disarm: (db, t) => clearFaults(db, t.billingFaults),
      stage: async () => {
        await expect(page.getByText("Your order is being placed.")).toBeVisible();
      },
    });
  });

  test("a portal killed between the charge and the license finishes with one subscription and one license", async ({
    page,
    databaseEngine,
  }) => {
    test.setTimeout(120_000);
    await orderThroughACrash({ page, databaseEngine }, "Killed Mid Order Co", {
      arm: (db) => refuseInserts(db, "full_disk_kill", "licenses", "database or disk is full"),
      disarm: (db) => dropTrigger(db, "full_disk_kill"),
      // Charged, and no license yet: the server dies here.
      stage: async (databaseUrl, before) => {
        await expect.poll(() => subscriptionsOf(databaseUrl, DEMO.customer), { timeout: 20_000 }).toBe(before + 1);
        expect(await licensesNamed(databaseUrl, "Killed Mid Order Co")).toBe(0);
      },
    });
  });

  test("of two instances, the one killed between the charge and the license leaves the order to the other, charged once", async ({
    page,
    databaseEngine,
  }) => {
    test.skip(databaseEngine !== "postgres", "instances side by side on one database are PostgreSQL's arrangement");
    test.setTimeout(150_000);
    const organization = "Other Instance Finishes Co";
    const portal = await startPortal({ engine: databaseEngine });
    try {
      servesPortal(page.context(), portal.baseURL);
      await signInAs(page, DEMO.customer);
      await walkToOrder(page, organization, "5", portal.baseURL);
      const before = await subscriptionsOf(portal.databaseUrl, DEMO.customer);
      await withDatabase(portal.databaseUrl, (db) => holdInserts(db, "license_insert_held", "licenses"));
      await page.getByRole("link", { name: "Submit Order" }).click();
      await page.getByRole("button", { name: "Purchase" }).click();
      await expect(page).toHaveURL(/\/store\/orders\//);
      const progressPath = new URL(page.url()).pathname;

      // Charged, and the license insert under way on the instance that holds the order's job.
      await expect.poll(() => subscriptionsOf(portal.databaseUrl, DEMO.customer), { timeout: 30_000 }).toBe(before + 1);
      const holder = await withDatabase(portal.databaseUrl, async (db, t) => {
        const [job] = await db
          .select({ holder: t.jobs.leaseHolder })
          .from(t.jobs)
          .where(and(eq(t.jobs.kind, "new-subscription"), eq(t.jobs.status, "running")));
        return job?.holder ?? null;
      });
      // The lease holder is `host:pid:runner`: the instance to kill.
      const holderPid = Number(holder?.split(":")[1]);
      expect(portal.pids).toContain(holderPid);
      await page.goto("about:blank");
      process.kill(holderPid, "SIGKILL");
      await withDatabase(portal.databaseUrl, (db) => releaseHeldInserts(db, "license_insert_held"));

      // The instance left takes the job over once the dead one's lease runs out, and finishes it.
      const survivor = portal.instanceURLs[portal.pids.indexOf(holderPid) === 0 ? 1 : 0];
      await page.goto(`${survivor}${progressPath}`);
      await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 45_000 });
      expect(await subscriptionsOf(portal.databaseUrl, DEMO.customer)).toBe(before + 1);
      expect(await licensesNamed(portal.databaseUrl, organization)).toBe(1);
    } finally {
      await page.goto("about:blank");
      await portal.stop({ signal: "SIGKILL" });
    }
  });

  test("two portal processes on one database each place an order posted to both at once, charging once", async ({
    page,
    databaseEngine,
  }) => {
    test.setTimeout(150_000);
    const first = await startPortal({ engine: databaseEngine });
    const second = await startPortal({ directory: first.directory });
    try {
      servesPortal(page.context(), first.baseURL);
      await signInAs(page, DEMO.customer);
      const before = await subscriptionsOf(first.databaseUrl, DEMO.customer);
      for (const [index, portal] of [first, second].entries()) {
        const organization = `Side By Side ${index + 1}`;
        await walkToOrder(page, organization, "3", portal.baseURL);
        await page.getByRole("link", { name: "Submit Order" }).click();
        const form = await confirmationForm(page);
        // The same confirmation reaches both processes at the same moment.
        const post = (baseURL: string) =>
          page.request.post(`${baseURL}/store/subscribe/order`, {
            form,
            maxRedirects: 0,
            headers: { Origin: baseURL },
          });
        const [a, b] = await Promise.all([post(first.baseURL), post(second.baseURL)]);
        expect(a.headers().location).toMatch(/^\/store\/orders\//);
        expect(b.headers().location).toBe(a.headers().location);
        await page.goto(`${portal.baseURL}${a.headers().location}`);
        await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 30_000 });
        expect(await licensesNamed(first.databaseUrl, organization)).toBe(1);
      }
      expect(await subscriptionsOf(first.databaseUrl, DEMO.customer)).toBe(before + 2);
    } finally {
      await page.goto("about:blank");
      await second.stop({ keepData: true });
      await first.stop();
    }
  });
});
