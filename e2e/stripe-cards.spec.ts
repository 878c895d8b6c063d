import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { openDatabase, tablesOf } from "~/server/platform/database/portal-database.server";
import {
  DECLINED,
  INVALID_NUMBER,
  FAKE_PUBLISHABLE_KEY,
  FAKE_STRIPE_KEY,
  STRIPE_PAGES,
  startStripeFake,
  type StripeFake,
} from "../tests/fakes/stripe";
import { CARD_ENTRY_AT_STRIPE } from "~/domain/card-entry";
import { CHECKOUT_EXPIRED } from "~/server/cards/stripe/adapter.server";
import { expect, reportBrowserErrors, servesPortal, startPortal, test, type DatabaseEngine } from "./fixtures";
import { signInAsNewCustomer } from "./new-customer";
import { fillCardHolder } from "./card-form";
import { routeStripe } from "./stripe-js-stub";

/**
 * Saving the account's card with CARD_PROVIDER=stripe, in a browser: a portal of the test's own on Chargebee and
 * Stripe, both the test's fakes (run in this worker), and a browser whose requests to Stripe go to the fake (and
 * to a stand-in for Stripe.js, e2e/stripe-js-stub.ts). With JavaScript the card is confirmed on the page, and a
 * bank that asks is answered on its page; without JavaScript the card is entered on Stripe's Checkout page.
 */

/** What tests/fakes/chargebee.ts takes (its module cannot be imported here: it imports JSON). */
const CHARGEBEE = {
  CHARGEBEE_SITE: "127.0.0.1",
  CHARGEBEE_API_KEY: "test_fake_chargebee_key",
  CHARGEBEE_GATEWAY_ACCOUNT_ID: "gw_fake_stripe",
  CHARGEBEE_PUBLISHABLE_KEY: "test_fake_publishable",
  CHARGEBEE_WEBHOOK_USERNAME: "chargebee",
  CHARGEBEE_WEBHOOK_PASSWORD: "0123456789abcdef",
};

/** Chargebee's fake in a process of its own, on this SQLite file (e2e/chargebee-fake-process.ts). */
async function startChargebeeProcess(file: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "e2e/chargebee-fake-process.ts", file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse(String((await lines.next()).value)) as { port?: number; refusals?: string[] };
  const { port } = await next();
  if (!port) throw new Error("Chargebee's fake did not start");
  return {
    port,
    /** Stops it; the requests it refused as Chargebee would. */
    async stop(): Promise<string[]> {
      if (child.exitCode !== null) return ["Chargebee's fake exited early"];
      child.kill("SIGTERM");
      const { refusals = [] } = await next();
      await once(child, "exit");
      return refusals;
    },
  };
}

interface StripeWalk {
  page: Page;
  stripe: StripeFake;
  methods: Locator;
  /** The card references `<Stripe customer>/<payment method>` Chargebee keeps for the organization's customer. */
  chargebeeCards: () => Promise<string[]>;
}

async function withStripePortal(
  {
    browser,
    javaScriptEnabled,
    databaseEngine,
  }: { browser: Browser; javaScriptEnabled: boolean; databaseEngine: DatabaseEngine },
  walk: (parts: StripeWalk) => Promise<void>,
) {
  // Chargebee's fake serves from an embedded billing engine of its own, on a SQLite database of its own.
  const directory = mkdtempSync(path.join(tmpdir(), "gk-chargebee-fake-"));
  const file = path.join(directory, "chargebee.sqlite");
  let chargebee: Awaited<ReturnType<typeof startChargebeeProcess>> | undefined;
  const store = openDatabase(`file:${file}`);
  const { billingPaymentSources, cardTokens } = tablesOf("sqlite");
  let stripe: StripeFake | undefined;
  let portal: Awaited<ReturnType<typeof startPortal>> | undefined;
  let context: BrowserContext | undefined;
  const problems: string[] = [];
  try {
    chargebee = await startChargebeeProcess(file);
    // Chargebee reads a saved card from its Stripe gateway: the card Stripe's fake saved goes into its vault.
    stripe = await startStripeFake({
      onCardSaved: async (card) => {
        await store.db
          .insert(cardTokens)
          .values({ ...card, kind: "payment_method", expiryMonth: 12, expiryYear: 2034, createdAt: new Date() });
      },
    });
    portal = await startPortal({
      engine: databaseEngine,
      ownPublicUrl: true,
      env: {
        BILLING_PROVIDER: "chargebee",
        ...CHARGEBEE,
        CHARGEBEE_API_URL: `http://127.0.0.1:${chargebee.port}`,
        CARD_PROVIDER: "stripe",
        STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
        STRIPE_PUBLISHABLE_KEY: FAKE_PUBLISHABLE_KEY,
        STRIPE_API_URL: `http://127.0.0.1:${stripe.port}`,
      },
    });
    context = await browser.newContext({ baseURL: portal.baseURL, javaScriptEnabled });
    servesPortal(context, portal.baseURL);
    await routeStripe(context, stripe);
    // A script, frame or request the page's policy blocks fails the walk, whether or not the browser logs it.
    await context.exposeBinding("reportViolation", (_source, violation: string) =>
      problems.push(`CSP violation: ${violation}`),
    );
    await context.addInitScript(() =>
      document.addEventListener("securitypolicyviolation", (event) =>
        (window as unknown as { reportViolation: (violation: string) => void }).reportViolation(
          `${event.effectiveDirective} ${event.blockedURI} on ${event.documentURI}`,
        ),
      ),
    );
    const page = await context.newPage();
    // Stripe answers a declined card's confirmation 402, which the browser logs as a failed load.
    reportBrowserErrors(page, problems, [402]);
    await signInAsNewCustomer(page, portal.databaseUrl, "stripe");
    const chargebeeCards = async () =>
      (await store.db.select({ reference: billingPaymentSources.referenceId }).from(billingPaymentSources)).map(
        (row) => row.reference ?? "",
      );
    await walk({ page, stripe, methods: page.getByRole("region", { name: "Payment Methods" }), chargebeeCards });
    await context.close();
    context = undefined;
    expect(stripe.shapeErrors, "requests Stripe would refuse").toEqual([]);
    const refusals = await chargebee.stop();
    chargebee = undefined;
    expect(refusals, "requests Chargebee would refuse").toEqual([]);
    expect(portal.stderr(), "no errors on the server").toBe("");
    expect(problems, "no errors in the browser").toEqual([]);
  } finally {
    await context?.close();
    await portal?.stop();
    await stripe?.close();
    await chargebee?.stop();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

test.describe("Stripe cards", () => {
  test("with Stripe.js: saved, replaced after the bank asked, and a declined card keeps the old one", async ({
    browser,
    javaScriptEnabled,
    databaseEngine,
  }) => {
    test.skip(!javaScriptEnabled, "Stripe.js runs only with JavaScript");
    // A portal, the Chargebee fake and two instances of its own, then three cards: 52 s on a quiet machine, up to
    // 1.8 min with four walks on two busy cores.
    test.setTimeout(180_000);
    await withStripePortal(
      { browser, javaScriptEnabled, databaseEngine },
      async ({ page, methods, chargebeeCards }) => {
        // The URL of the document on screen, which a client-side navigation keeps.
        const documentUrl = () =>
          page.evaluate(() => new URL(performance.getEntriesByType("navigation")[0].name).pathname);
        const drawerData: string[] = [];
        page.on("request", (request) => {
          if (/\/cards\/[^/]+(\/replace)?\.data/.test(request.url())) drawerData.push(request.url());
        });
        // Only the pages that take a card let Stripe.js load (decision 228): the account is reached from home in the
        // page, and Add Card loads its drawer as a document of its own, whose policy names Stripe.
        const home = await page.goto("/home");
        expect(home?.headers()["content-security-policy"]).not.toMatch(/stripe/);
        await expect(page.locator("html")).toHaveAttribute("data-link-navigation", "on");
        await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Account" }).click();
        await expect(page).toHaveURL(/\/account$/);
        expect(await documentUrl()).toBe("/home");
        const toDrawer = page.waitForResponse((response) => response.url().endsWith("/account/cards/new"));
        await methods.getByRole("link", { name: "Add Card" }).click();
        expect((await toDrawer).headers()["content-security-policy"]).toContain("https://js.stripe.com");
        expect(await documentUrl()).toBe("/account/cards/new");
        expect(drawerData, "the drawer is no client-side navigation").toEqual([]);
        const add = page.getByRole("dialog", { name: "Create new payment method" });
        await fillCardHolder(add);
        // A mistyped number, then the right one: the message under the card comes and goes (two renders), and the
        // card still goes to Stripe.js, not to Checkout.
        await add.getByLabel("Card number").fill("4242 4242 4242 4241");
        await expect(add.getByText(INVALID_NUMBER)).toBeVisible();
        await add.getByLabel("Card number").fill("4242 4242 4242 4242");
        await expect(add.getByText(INVALID_NUMBER)).toBeHidden();
        await add.getByRole("button", { name: "Save Card" }).click();
        await expect(page.getByRole("status")).toContainText("Successfully added new payment method.");
        await expect(methods.getByRole("row")).toHaveCount(2);
        await expect(methods.getByRole("row").nth(1)).toContainText("4242");
        const [first] = await chargebeeCards();
        expect(await chargebeeCards()).toEqual([expect.stringMatching(/^cus_\w+\/pm_\w+$/)]);

        await methods.getByRole("link", { name: "Replace Visa ending in 4242" }).click();
        const replace = page.getByRole("dialog", { name: "Replace payment method" });
        await fillCardHolder(replace);
        await replace.getByLabel("Card number").fill("4000 0027 6000 3184");
        await replace.getByRole("button", { name: "Save Card" }).click();
        await expect(page).toHaveURL(new RegExp(`^${STRIPE_PAGES.hooks}/`));
        await page.getByRole("button", { name: "Complete authentication" }).click();
        await expect(page).toHaveURL(/\/account$/);
        await expect(page.getByRole("status")).toContainText("Successfully replaced new payment method.");
        await expect(methods.getByRole("row")).toHaveCount(2);
        await expect(methods.getByRole("row").nth(1)).toContainText("3184");
        // The same Stripe customer keeps the new card, in place of the old one.
        const [replaced] = await chargebeeCards();
        expect(await chargebeeCards()).toEqual([expect.stringMatching(new RegExp(`^${first.split("/")[0]}/pm_`))]);
        expect(replaced).not.toBe(first);

        await methods.getByRole("link", { name: "Replace Visa ending in 3184" }).click();
        await fillCardHolder(replace);
        await replace.getByLabel("Card number").fill("4000 0000 0000 0002");
        await replace.getByRole("button", { name: "Save Card" }).click();
        await expect(replace.getByText(DECLINED)).toBeVisible();
        await page.goto("/account");
        await expect(methods.getByRole("row")).toHaveCount(2);
        await expect(methods.getByRole("row").nth(1)).toContainText("3184");
        expect(await chargebeeCards()).toEqual([replaced]);

        // A card form reached in the page some other way (a wizard's redirect, say) from a document whose policy
        // does not name Stripe loads its page again, as a document: Stripe's card element mounts, nothing is blocked.
        const replaceLink = methods.getByRole("link", { name: "Replace Visa ending in 3184" });
        const replaceUrl = new URL((await replaceLink.getAttribute("href"))!, page.url()).pathname;
        await page.evaluate(
          (to) =>
            (
              window as unknown as { __remixRouter: { navigate: (to: string) => Promise<void> } }
            ).__remixRouter.navigate(to),
          replaceUrl,
        );
        await expect(replace.getByLabel("Card number")).toBeVisible();
        expect(await documentUrl()).toBe(replaceUrl);
      },
    );
  });

  test("without JavaScript, on Stripe's Checkout page: saved; left or expired, the old card stays", async ({
    browser,
    javaScriptEnabled,
    databaseEngine,
  }) => {
    test.skip(javaScriptEnabled, "Checkout is the card entry without JavaScript");
    await withStripePortal(
      { browser, javaScriptEnabled, databaseEngine },
      async ({ page, stripe, methods, chargebeeCards }) => {
        /**
         * Saves the drawer's form and follows the portal's redirect to Checkout; its session's id. Playwright routes
         * only the first request of a redirect chain, so the browser's own request to Checkout fails (there is no
         * Stripe here) and the test opens the address it was sent to.
         */
        const saveToCheckout = async (drawer: Locator) => {
          const toCheckout = page.waitForEvent("requestfailed", (request) =>
            request.url().startsWith(STRIPE_PAGES.checkout),
          );
          await drawer.getByRole("button", { name: "Save Card" }).click();
          const checkout = (await toCheckout).url();
          await expect(page).toHaveURL(/^chrome-error:/);
          await page.goto(checkout);
          await expect(page).toHaveURL(new RegExp(`^${STRIPE_PAGES.checkout}/c/pay/cs_test_\\w+$`));
          return page.url().split("/").pop()!;
        };
        await page.goto("/account");
        await methods.getByRole("link", { name: "Add Card" }).click();
        const add = page.getByRole("dialog", { name: "Create new payment method" });
        // Playwright's text matching passes over <noscript>: its text is read as the page holds it.
        expect(await add.locator("noscript").evaluate((element) => element.textContent)).toContain(
          CARD_ENTRY_AT_STRIPE,
        );
        await fillCardHolder(add);
        await saveToCheckout(add);
        // Checkout keeps its page on a declined card, as Stripe's does.
        await page.getByLabel("Card number").fill("4000 0000 0000 0002");
        await page.getByRole("button", { name: "Save card" }).click();
        await expect(page.getByRole("alert")).toHaveText(DECLINED);
        await page.getByLabel("Card number").fill("4242 4242 4242 4242");
        await page.getByRole("button", { name: "Save card" }).click();
        await expect(page).toHaveURL(/\/account$/);
        await expect(page.getByRole("status")).toContainText("Successfully added new payment method.");
        await expect(methods.getByRole("row")).toHaveCount(2);
        await expect(methods.getByRole("row").nth(1)).toContainText("4242");
        const saved = await chargebeeCards();
        expect(saved).toEqual([expect.stringMatching(/^cus_\w+\/pm_\w+$/)]);

        // Back from Checkout: the account as it was.
        const replace = page.getByRole("dialog", { name: "Replace payment method" });
        await methods.getByRole("link", { name: "Replace Visa ending in 4242" }).click();
        await fillCardHolder(replace);
        await saveToCheckout(replace);
        await page.getByRole("link", { name: "Back" }).click();
        await expect(page).toHaveURL(/\/account$/);
        await expect(methods.getByRole("row").nth(1)).toContainText("4242");

        // A Checkout page that expired, and its return (a late one, from the browser's history): declined.
        await methods.getByRole("link", { name: "Replace Visa ending in 4242" }).click();
        await fillCardHolder(replace);
        const session = await saveToCheckout(replace);
        stripe.expireCheckout(session);
        await page.reload();
        await expect(page.getByRole("heading", { name: "This page has expired" })).toBeVisible();
        await page.goto(`/account/cards/return?session_id=${session}`);
        await expect(page).toHaveURL(/\/account$/);
        await expect(page.getByRole("alert")).toContainText(`Failed to add payment method. ${CHECKOUT_EXPIRED}`);
        await expect(methods.getByRole("row")).toHaveCount(2);
        await expect(methods.getByRole("row").nth(1)).toContainText("4242");
        expect(await chargebeeCards()).toEqual(saved);
      },
    );
  });
});
