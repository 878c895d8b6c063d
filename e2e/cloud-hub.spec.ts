import type { Page } from "@playwright/test";
import { count, eq, like } from "drizzle-orm";
import { armFault, clearFaults, withDatabase } from "./database";
import {
  DEMO,
  DEMO_PASSWORD,
  expect,
  expectAccessible,
  holdScripts,
  signIn,
  servesPortal,
  signInAs,
  startPortal,
  test,
} from "./fixtures";
import { HUB_HOST, READY, urlStep, walkAndDeploy as walkAndDeployWith } from "./cloud-hub-steps";
import { next, planStep } from "./purchase-steps";

/**
 * Deploying a cloud Hub: support's link, the wizard, the deployment as a job on the Hub
 * simulator, each failure screen and its retry, and 'Go to Hub' through a one-time link.
 */
const DEMO_LICENSE = /Northwind Clinics East/;

/** The demo's one cloud license is free again (unused, on no Hub), so each test can deploy with it. */
const freeDemoLicense = (databaseUrl: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    await db
      .update(t.licenses)
      .set({ isUsed: false, hubJobId: null })
      .where(eq(t.licenses.externalLicenseId, "GK-NWC-2026-0002"));
    await db.delete(t.hubLicenses);
    await clearFaults(db, t.hubFaults);
  });

const tenantsNamed = (databaseUrl: string, subdomain: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    const [{ n }] = await db.select({ n: count() }).from(t.hubTenants).where(eq(t.hubTenants.subdomain, subdomain));
    return n;
  });

/** The wizard walked with the demo's cloud license. */
const walkAndDeploy = (page: Page, subdomain: string) => walkAndDeployWith(page, subdomain, "Northwind Clinics East");

/** A unique subdomain per project, as both projects' workers may run at once on their own portals. */
const subdomainFor = (base: string) => `${base}-${test.info().project.name === "javascript" ? "js" : "nojs"}`;

test.describe("deploying a cloud Hub", () => {
  test.use({ expectedServerErrors: [/job-step-failed/] });

  test("a subdomain typed before the page hydrated shows in the Hub's address and lets Next on", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "without JavaScript nothing tracks the field: the server checks the post");
    await signInAs(page, DEMO.customer);
    const hydrate = await holdScripts(page);
    // A document load, as from support's link or after signing in: only its HTML is awaited.
    await page.goto("/hubs/new/url", { waitUntil: "commit" });
    const subdomain = subdomainFor("typed-early");
    await page.locator('input[name="subdomain"]').fill(subdomain);
    hydrate();
    await expect(page.getByTestId("hub-address")).toContainText(`https://${subdomain}.${HUB_HOST}`, {
      timeout: 15_000,
    });
    await expect(page.getByRole("button", { name: "Next: License" })).toBeEnabled();
  });

  test("support's link, signed out: sign in, the wizard, a Hub on the simulator, listed, and Go to Hub without a password", async ({
    page,
    portal,
  }) => {
    test.setTimeout(90_000);
    await freeDemoLicense(portal.databaseUrl);
    const subdomain = subdomainFor("ada-clinic");
    await signIn(page, DEMO.customer, DEMO_PASSWORD, "/hubs?new=true");
    await expect(
      page.getByRole("dialog", {
        name: "Create New Cloud GateKeeper Hub Deployment",
      }),
    ).toBeVisible();
    await walkAndDeploy(page, subdomain);
    await expect(page.getByText(READY)).toBeVisible({ timeout: 20_000 });
    for (const stage of ["Create Hub", "Connect to Portal", "Create Account", "Upload License", "Finish"]) {
      await expect(
        page.getByRole("list", { name: "Deployment progress" }).getByRole("listitem").filter({ hasText: stage }),
      ).toHaveAttribute("data-state", "done");
    }

    // The link signs in to the Hub with a ticket, never a password. The browser is sent there by a redirect, which
    // Playwright does not route, and the Hub's host resolves nowhere here: the request it makes is what counts.
    const hubRequest = page.waitForRequest((request) => request.url().startsWith(`https://${subdomain}.${HUB_HOST}/`));
    await page.getByRole("link", { name: "Go to Hub" }).click();
    const opened = (await hubRequest).url();
    expect(opened).toMatch(
      new RegExp(`^https://${subdomain}\\.${HUB_HOST.replace(/\./g, "\\.")}/sign-in\\?ticket=[\\w-]{20,}$`),
    );
    expect(opened).not.toContain("Secret123");

    await page.goto("/hubs");
    await expect(page.getByRole("row", { name: new RegExp(`${subdomain}\\.${HUB_HOST}`) })).toContainText("Cloud");
    expect(await tenantsNamed(portal.databaseUrl, subdomain)).toBe(1);
  });

  const failures = [
    { call: "createTenant", mode: "fail", title: "Error Creating Hub" },
    {
      call: "registerTenant",
      mode: "fail",
      title: "Registering new GateKeeper Hub was interrupted.",
    },
    {
      call: "syncTenant",
      mode: "not_ready",
      title: "Did not finish creating GateKeeper Cloud Hub.",
      notReadyAtCreation: true,
    },
    {
      call: "startHub",
      mode: "not_ready",
      title: "Did not finish starting your GateKeeper Cloud Hub.",
      notReadyAtCreation: true,
    },
    {
      call: "setUpAdmin",
      mode: "fail",
      title: "Could not set up GateKeeper Cloud Hub admin account.",
    },
    {
      call: "uploadLicense",
      mode: "fail",
      title: "Could not upload the license to GateKeeper Cloud Hub.",
    },
  ] as const;

  for (const failure of failures) {
    test(`a failure at ${failure.call} shows '${failure.title}', and Try again finishes the deployment once`, async ({
      page,
      portal,
    }) => {
      test.setTimeout(90_000);
      await freeDemoLicense(portal.databaseUrl);
      const subdomain = subdomainFor(`fail-${failure.call.toLowerCase()}`);
      await withDatabase(portal.databaseUrl, async (db, t) => {
        const notReady = { mode: "not_ready", kind: "retryable", message: "The Hub is not ready yet." } as const;
        if (failure.mode === "not_ready") {
          // The Hub stays not ready (or not running) through every automatic retry.
          if ("notReadyAtCreation" in failure) await armFault(db, t.hubFaults, { ...notReady, call: "createTenant" });
          await armFault(db, t.hubFaults, { ...notReady, call: failure.call, remaining: null });
        } else {
          await armFault(db, t.hubFaults, { call: failure.call, mode: "fail", message: "Injected failure." });
        }
      });
      await signInAs(page, DEMO.customer);
      await page.goto("/hubs?new=true");
      await walkAndDeploy(page, subdomain);
      await expect(page.getByRole("alert").filter({ hasText: failure.title })).toBeVisible({ timeout: 30_000 });
      if (failure.call === "createTenant") await expect(page.getByRole("link", { name: "Support page" })).toBeVisible();

      await withDatabase(portal.databaseUrl, (db, t) => clearFaults(db, t.hubFaults));
      await page.getByRole("button", { name: "Try again" }).click();
      await expect(page.getByText(READY)).toBeVisible({ timeout: 30_000 });
      expect(await tenantsNamed(portal.databaseUrl, subdomain)).toBe(1);
      await page.goto("/hubs");
      await expect(page.getByRole("row", { name: new RegExp(subdomain) })).toHaveCount(1);
    });
  }
});

test.describe("a license whose deployment is under way", () => {
  test.use({ expectedHttpErrors: [422], expectedServerErrors: [/job-step-failed/] });

  test("is refused for a second deployment from a page left open, and is in no list, while the first runs", async ({
    page,
    portal,
  }) => {
    test.setTimeout(90_000);
    await freeDemoLicense(portal.databaseUrl);
    // The first deployment's Hub never becomes ready while this test runs: its job is under way throughout.
    await withDatabase(portal.databaseUrl, async (db, t) => {
      const notReady = { mode: "not_ready", kind: "retryable", message: "The Hub is not ready yet." } as const;
      await armFault(db, t.hubFaults, { ...notReady, call: "createTenant" });
      await armFault(db, t.hubFaults, { ...notReady, call: "syncTenant", remaining: null });
    });
    await signInAs(page, DEMO.customer);
    // A second tab, left open on the License step with the license listed.
    const leftOpen = await page.context().newPage();
    await leftOpen.goto("/hubs/new/url");
    await urlStep(leftOpen, subdomainFor("second-of-one"));
    await expect(leftOpen.getByRole("radio", { name: DEMO_LICENSE })).toBeVisible();

    await page.goto("/hubs?new=true");
    await walkAndDeploy(page, subdomainFor("first-of-one"));
    await expect(page.getByText(READY)).toHaveCount(0);

    await leftOpen.getByRole("radio", { name: DEMO_LICENSE }).check();
    await leftOpen.getByRole("button", { name: "Next: Administration" }).click();
    await expect(leftOpen.getByText("Unable to verify license.")).toBeVisible();
    await expect(leftOpen).toHaveURL(/\/hubs\/new\/license$/);
    // Opened afresh, the step lists no license the running deployment holds.
    await leftOpen.goto("/hubs/new/license");
    await expect(leftOpen.getByRole("radio", { name: DEMO_LICENSE })).toHaveCount(0);
    expect(await tenantsNamed(portal.databaseUrl, subdomainFor("second-of-one"))).toBe(0);
    await leftOpen.close();
    // The first deployment stops at its screen (the Hub never became ready), so no job of this test is left to
    // finish during the next one.
    await expect(
      page.getByRole("alert").filter({ hasText: "Did not finish creating GateKeeper Cloud Hub." }),
    ).toBeVisible({
      timeout: 30_000,
    });
    await withDatabase(portal.databaseUrl, (db, t) => clearFaults(db, t.hubFaults));
  });
});

test.describe("the URL step", () => {
  test.use({ expectedHttpErrors: [422] });

  test("says what is wrong with a subdomain: too short, bad characters, reserved, taken", async ({ page, portal }) => {
    const javaScript = test.info().project.name === "javascript";
    const taken = subdomainFor("taken-clinic");
    await withDatabase(portal.databaseUrl, (db, t) =>
      db
        .insert(t.hubTenants)
        .values({
          id: `hub_${taken}`,
          customerId: "someone",
          subdomain: taken,
          url: `https://${taken}.${HUB_HOST}`,
          region: 1,
          readyAt: new Date(0),
          runningAt: new Date(0),
          createdAt: new Date(0),
        })
        .onConflictDoNothing(),
    );
    await signInAs(page, DEMO.customer);
    await page.goto("/hubs/new/url");
    if (javaScript) await expectAccessible(page);
    const field = page.locator('input[name="subdomain"]');
    const cases = [
      { value: "acme", message: "Must have six or more characters." },
      {
        value: "acme_clinic",
        message: "Alphanumeric characters and hyphens only.",
      },
      {
        value: "support",
        message: "This subdomain is not allowed. Please choose a different one.",
      },
    ];
    for (const { value, message } of cases) {
      await field.fill(value);
      if (javaScript) {
        await field.blur();
        await expect(page.getByRole("button", { name: "Next: License" })).toBeDisabled();
        await expect(page.getByText("Please fix the errors to save changes.")).toBeVisible();
      } else {
        await page.getByRole("button", { name: "Next: License" }).click();
        await expect(field).toHaveValue(value);
      }
      await expect(page.getByText(message)).toBeVisible();
    }
    // Taken is known only to the Hub service: the check on Next says so, and keeps what was typed.
    await field.fill(taken);
    await page.getByRole("button", { name: "Next: License" }).click();
    await expect(page.getByText("This domain is unavailable. Please choose a different domain.")).toBeVisible();
    await expect(page).toHaveURL(/\/hubs\/new\/url$/);
    await expect(field).toHaveValue(taken);
  });
});

test.describe("the demo's cloud Hub", () => {
  test.use({ expectedHttpErrors: [422] });

  test("its address, listed on /hubs, is refused for a new Hub: the Hub service knows it is taken", async ({
    page,
  }) => {
    await signInAs(page, DEMO.customer);
    await page.goto("/hubs");
    await expect(page.getByRole("row", { name: new RegExp(`northwind-west\\.${HUB_HOST}`) })).toBeVisible();
    await page.goto("/hubs/new/url");
    const field = page.locator('input[name="subdomain"]');
    await field.fill("northwind-west");
    await page.getByRole("button", { name: "Next: License" }).click();
    await expect(page.getByText("This domain is unavailable. Please choose a different domain.")).toBeVisible();
    await expect(page).toHaveURL(/\/hubs\/new\/url$/);
    await expect(field).toHaveValue("northwind-west");
  });
});

test("a license bought from the Hubs page opens the wizard with it chosen, and the license list searches", async ({
  page,
  portal,
}) => {
  test.setTimeout(90_000);
  await freeDemoLicense(portal.databaseUrl);
  const javaScript = test.info().project.name === "javascript";
  await signInAs(page, DEMO.customer);
  await page.goto("/store/subscribe/plan?origin=cloud-hubs");
  await planStep(page, "Hub Buyer Co", "3");
  for (const label of ["Next: Hardware", "Next: Support", "Next: Review", "Next: Billing", "Next: Order"])
    await next(page, label);
  await page.getByRole("link", { name: "Submit Order" }).click();
  await page.getByRole("dialog", { name: "Place your order." }).getByRole("button", { name: "Purchase" }).click();
  await page.getByRole("link", { name: "Continue GateKeeper Hub Cloud Deployment" }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/hubs\/new\/url\?license=/);
  await urlStep(page, subdomainFor("buyer-clinic"));
  await expect(page.getByRole("radio", { name: /Hub Buyer Co/ })).toBeChecked();
  if (javaScript) await expectAccessible(page);
  await expect(page.getByRole("radio", { name: DEMO_LICENSE })).not.toBeChecked();

  // Search: a GET form; with JavaScript it also runs as one types.
  const search = page.getByRole("searchbox", { name: "Search licenses" }).or(page.getByLabel("Search licenses"));
  await search.fill("northwind");
  if (!javaScript) await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/[?&]q=northwind/);
  await expect(page.getByRole("radio", { name: /Hub Buyer Co/ })).toHaveCount(0);
  await expect(page.getByRole("radio", { name: DEMO_LICENSE })).toBeVisible();
  await expect(page.getByText("1-1 of 1 items")).toBeVisible();
});

test("a portal killed while the Hub's admin setup hangs finishes the deployment once after a restart", async ({
  page,
  databaseEngine,
}) => {
  test.setTimeout(120_000);
  const subdomain = subdomainFor("crash-clinic");
  const first = await startPortal({ engine: databaseEngine });
  let second: Awaited<ReturnType<typeof startPortal>> | null = null;
  try {
    servesPortal(page.context(), first.baseURL);
    await signInAs(page, DEMO.customer);
    await withDatabase(first.databaseUrl, (db, t) =>
      armFault(db, t.hubFaults, {
        call: "setUpAdmin",
        mode: "hang",
        kind: "unknown",
        message: "timeout",
        hangMs: 60_000,
      }),
    );
    await page.goto(`${first.baseURL}/hubs?new=true`);
    await walkAndDeploy(page, subdomain);
    const progressPath = new URL(page.url()).pathname;
    await expect(page.getByRole("listitem").filter({ hasText: "Create Account" })).toHaveAttribute(
      "data-state",
      "running",
      { timeout: 20_000 },
    );
    await page.goto("about:blank");
    await first.stop({ signal: "SIGKILL", keepData: true });
    await withDatabase(first.databaseUrl, (db, t) => clearFaults(db, t.hubFaults));

    second = await startPortal({ directory: first.directory });
    await page.goto(`${second.baseURL}${progressPath}`);
    await expect(page.getByText(READY)).toBeVisible({ timeout: 30_000 });
    expect(await tenantsNamed(second.databaseUrl, subdomain)).toBe(1);
    const [installations] = await withDatabase(second.databaseUrl, (db, t) =>
      db
        .select({ n: count() })
        .from(t.hubInstallations)
        .where(like(t.hubInstallations.url, `%//${subdomain}.%`)),
    );
    expect(installations.n).toBe(1);
  } finally {
    await page.goto("about:blank");
    await second?.stop();
    await first.stop({ signal: "SIGKILL" });
  }
});

test("'Registering new GateKeeper Hub was interrupted.' offers Try again only after the wait, then finishes the deployment", async ({
  page,
  databaseEngine,
}) => {
  test.setTimeout(120_000);
  // The 30 s wait before 'Try again', shortened to 5 s on a portal of this test's own; the rule and its reload are the same.
  const portal = await startPortal({ engine: databaseEngine, env: { HUB_RETRY_WAIT_MS: "5000" } });
  try {
    const subdomain = subdomainFor("wait-clinic");
    await withDatabase(portal.databaseUrl, (db, t) =>
      armFault(db, t.hubFaults, { call: "registerTenant", mode: "fail", message: "Injected failure." }),
    );
    servesPortal(page.context(), portal.baseURL);
    await signInAs(page, DEMO.customer);
    await page.goto(`${portal.baseURL}/hubs?new=true`);
    await walkAndDeploy(page, subdomain);
    await expect(
      page.getByRole("alert").filter({ hasText: "Registering new GateKeeper Hub was interrupted." }),
    ).toBeVisible({ timeout: 30_000 });
    const tryAgain = page.getByRole("button", { name: "Try again" });
    await expect(tryAgain).toBeDisabled();
    await expect(page.getByText(/^You can try again in [1-5] seconds\.$/)).toBeVisible();
    // The page loads itself again when the wait is over (a timer, or a meta refresh without JavaScript).
    await expect(tryAgain).toBeEnabled({ timeout: 20_000 });
    await expect(page.getByText(/You can try again in/)).toHaveCount(0);
    await tryAgain.click();
    await expect(page.getByText(READY)).toBeVisible({ timeout: 30_000 });
    expect(await tenantsNamed(portal.databaseUrl, subdomain)).toBe(1);
  } finally {
    await page.goto("about:blank");
    await portal.stop();
  }
});
