import type { Page } from "@playwright/test";
import { and, count, eq, inArray, isNull, like } from "drizzle-orm";
import {
  armFault,
  billingCustomerIdOf,
  clearFaults,
  dropTrigger,
  invoicesInOrder,
  organizationIdOf,
  refuseInserts,
  withDatabase,
  type TestDatabase,
  type TestTables,
} from "./database";
import { DEMO, expect, expectAccessible, signInAs, test } from "./fixtures";
import { clearPaymentDetails, next } from "./purchase-steps";
import { fillCardForm } from "./card-form";
import { fillTrialAddress } from "./trial-steps";
import { signInAsNewCustomer } from "./new-customer";

/**
 * Free trials: the chooser and eligibility, the on-premise and cloud wizards, the trial as a
 * durable job with its hardware invoice, and each failure screen, with JavaScript on and off.
 */
const READY = "Your GateKeeper Enterprise trial is ready!";

/** The account starts with no trial, so each test sees the chooser (a worker's portal is shared by its tests). */
const resetTrials = (databaseUrl: string, email: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    const owner = await organizationIdOf(db, email);
    await db.delete(t.trials).where(eq(t.trials.ownerId, owner));
    await db.delete(t.licenses).where(and(eq(t.licenses.type, "trial"), eq(t.licenses.ownerId, owner)));
    await db
      .delete(t.jobs)
      .where(and(inArray(t.jobs.kind, ["cloud-trial", "onpremise-trial"]), eq(t.jobs.ownerId, owner)));
    await db.delete(t.drafts).where(and(like(t.drafts.wizard, "%-trial"), eq(t.drafts.ownerId, owner)));
    await clearFaults(db, t.hubFaults);
    await clearFaults(db, t.billingFaults);
    await dropTrigger(db, "refuse_trial_licenses");
  });

/** The hardware invoices of an account, oldest first, as the embedded billing engine keeps them. */
const hardwareInvoices = (databaseUrl: string, email: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    const customerId = (await billingCustomerIdOf(db, email)) ?? "";
    const rows = await db
      .select({ lines: t.billingInvoices.lineItems })
      .from(t.billingInvoices)
      .where(and(isNull(t.billingInvoices.subscriptionId), eq(t.billingInvoices.customerId, customerId)))
      .orderBy(...invoicesInOrder(t, "oldest first"));
    return rows.map((row) => row.lines.map(({ entityId, quantity, amount }) => ({ entityId, quantity, amount })));
  });

const trialCount = (databaseUrl: string, email: string) =>
  withDatabase(databaseUrl, async (db, t) => {
    const [{ n }] = await db
      .select({ n: count() })
      .from(t.trials)
      .where(eq(t.trials.ownerId, await organizationIdOf(db, email)));
    return n;
  });

/** The customer without a trial and with a failure armed, as an operator would: the invoices so far. */
async function customerWithFault(databaseUrl: string, arm: (db: TestDatabase, t: TestTables) => Promise<void>) {
  await resetTrials(databaseUrl, DEMO.customer);
  await withDatabase(databaseUrl, arm);
  return (await hardwareInvoices(databaseUrl, DEMO.customer)).length;
}

const subdomainFor = (base: string) => `${base}-${test.info().project.name === "javascript" ? "js" : "nojs"}`;

const javaScript = () => test.info().project.name === "javascript";

async function startTrial(page: Page, hub: "Cloud GateKeeper Hub" | "On-Premise GateKeeper Hub") {
  await page.getByRole("link", { name: "Start GateKeeper Enterprise Trial" }).click();
  await expect(page).toHaveURL(/\/trial$/);
  await page.getByRole("link", { name: hub }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  await next(page, "Start");
}

async function trialFigures(page: Page) {
  await page.locator('input[name="nodes"]').fill("5");
  await page.locator('input[name="employees"]').fill("40");
  await page.locator('input[name="duration"]').fill("20");
}

async function hardwareStep(page: Page, tokens: number, sensors: number) {
  await expect(page).toHaveURL(/\/hardware$/);
  await page.locator('input[name="tokens"]').fill(String(tokens));
  await page.locator('input[name="sensors"]').fill(String(sensors));
  await next(page, "Next: Address");
  await expect(page).toHaveURL(/\/address$/);
  await fillTrialAddress(page);
  await next(page, "Next: Payment");
  await expect(page).toHaveURL(/\/payment$/);
}

/** From the Review step to the trial's progress page. */
async function confirmAndBuild(page: Page) {
  await expect(page).toHaveURL(/\/review$/);
  await next(page, "Order Confirmation");
  await expect(page).toHaveURL(/\/order$/);
  await next(page, "Build My Trial");
  await expect(page).toHaveURL(/\/trial\/runs\/[\w-]+$/);
}

async function onPremiseTrial(page: Page, tokens: number) {
  await startTrial(page, "On-Premise GateKeeper Hub");
  await expect(page).toHaveURL(/\/trial\/onpremise\/license$/);
  await trialFigures(page);
  await next(page, "Next: Hardware");
  await hardwareStep(page, tokens, 0);
  // The customer's Visa on file is chosen.
  await expect(page.getByText("Your card is charged only for the hardware")).toBeVisible();
  await next(page, "Next: Review");
  await confirmAndBuild(page);
}

test.describe("free trials", () => {
  // Without JavaScript a form with a mistake comes back as 422 with its messages.
  test.use({ expectedServerErrors: [/job-step-failed/], expectedHttpErrors: [422] });

  test("a customer's on-premise trial with 3 tokens: one invoice with one box of shipping, then the trial is used up", async ({
    page,
    portal,
  }) => {
    test.setTimeout(90_000);
    await resetTrials(portal.databaseUrl, DEMO.customer);
    const invoicesBefore = (await hardwareInvoices(portal.databaseUrl, DEMO.customer)).length;
    await signInAs(page, DEMO.customer);
    await page.goto("/trial");
    if (javaScript()) await expectAccessible(page);
    await page.goto("/home");
    await startTrial(page, "On-Premise GateKeeper Hub");
    // The rules of the License step, each with its message.
    await page.locator('input[name="nodes"]').fill("0");
    await page.locator('input[name="duration"]').fill("31");
    await next(page, "Next: Hardware");
    await expect(page.getByText("Must be greater than 0").first()).toBeVisible();
    await expect(page.getByText("Must be between 15 and 30")).toBeVisible();
    await trialFigures(page);
    await next(page, "Next: Hardware");
    await hardwareStep(page, 3, 0);
    await next(page, "Next: Review");
    const review = page.getByRole("table", { name: "Your hardware" });
    await expect(review).toContainText("Shipping");
    await expect(review).toContainText("$7.50");
    await expect(page.getByText("7 days are added to your trial license")).toBeVisible();
    await confirmAndBuild(page);

    await expect(page.getByText(READY)).toBeVisible({ timeout: 30_000 });
    for (const stage of ["Trial License", "Purchase Hardware", "Finish"]) {
      await expect(
        page.getByRole("list", { name: "Trial progress" }).getByRole("listitem").filter({ hasText: stage }),
      ).toHaveAttribute("data-state", "done");
    }
    await expect(page.getByRole("link", { name: "Download Your Trial License" })).toHaveAttribute(
      "href",
      /\/licenses\/[\w-]+\/download$/,
    );
    await expect(page.getByRole("link", { name: "On-Premise Hub setup" })).toHaveAttribute(
      "href",
      "/setup/onPremiseHub",
    );

    const invoices = await hardwareInvoices(portal.databaseUrl, DEMO.customer);
    expect(invoices.length).toBe(invoicesBefore + 1);
    expect(invoices.at(-1)).toEqual([
      expect.objectContaining({ entityId: "halberd-rechargeable-token", quantity: 3 }),
      expect.objectContaining({ entityId: "gatekeeper-shipping", quantity: 1, amount: 750 }),
    ]);
    expect(await trialCount(portal.databaseUrl, DEMO.customer)).toBe(1);

    // Refreshing the finished trial changes nothing; the customer has used up the trial.
    await page.reload();
    await expect(page.getByText(READY)).toBeVisible();
    expect((await hardwareInvoices(portal.databaseUrl, DEMO.customer)).length).toBe(invoicesBefore + 1);
    await page.goto("/home");
    await expect(page.getByRole("link", { name: "Start GateKeeper Enterprise Trial" })).toHaveCount(0);
    await page.goto("/trial/onpremise/welcome");
    await expect(page).toHaveURL(/\/trial$/);
    await expect(page.getByText("You have used up your trial.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Licenses page" })).toHaveAttribute("href", "/licenses");
  });

  test("a distributor runs two cloud trials: reseller hardware on a card added in the step, then one without hardware", async ({
    page,
    portal,
  }) => {
    // Two whole trials: about 50 s on a busy 2-core machine.
    test.setTimeout(180_000);
    await resetTrials(portal.databaseUrl, DEMO.distributor);
    await clearPaymentDetails(portal.databaseUrl, DEMO.distributor);
    await signInAs(page, DEMO.distributor);
    for (const [index, tokens] of [2, 0].entries()) {
      const subdomain = subdomainFor(`reseller-trial-${index}`);
      await startTrial(page, "Cloud GateKeeper Hub");
      await expect(page).toHaveURL(/\/trial\/cloud\/instance$/);
      await expect(page.getByRole("dialog", { name: "GateKeeper Cloud Hub Trial Setup" })).toBeVisible();
      if (index === 0 && javaScript()) await expectAccessible(page);
      await trialFigures(page);
      await page.locator('input[name="subdomain"]').fill(subdomain);
      await page.locator('select[name="hubRegion"]').selectOption({ label: "European Union" });
      await next(page, "Next: Hub Admin");
      await expect(page).toHaveURL(/\/admin$/);
      await page.locator('input[name="password"]').fill("Secret123");
      await page.locator('input[name="confirmPassword"]').fill("Secret123");
      await next(page, "Next: Hardware");
      await hardwareStep(page, tokens, tokens ? 1 : 0);
      if (tokens) {
        // No card yet: the new-card form is in the step, and saving it goes on.
        if (javaScript()) await expectAccessible(page);
        await fillCardForm(page, "4242 4242 4242 4242", { holder: false });
        await next(page, "Save Card");
      } else {
        await expect(page.getByText("no card is needed")).toBeVisible();
        await next(page, "Next: Review");
      }
      await expect(page.getByRole("table", { name: "Your trial" })).toContainText(
        `https://${subdomain}.hub.gatekeeper.example`,
      );
      await confirmAndBuild(page);
      await expect(page.getByText(READY)).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("link", { name: "Go to Hub" })).toHaveAttribute("href", /\/hubs\/[\w-]+\/sign-in$/);
      if (index === 0 && javaScript()) await expectAccessible(page);
      await page.goto("/home");
    }
    expect(await trialCount(portal.databaseUrl, DEMO.distributor)).toBe(2);
    const invoices = await hardwareInvoices(portal.databaseUrl, DEMO.distributor);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]?.map((line) => line.entityId)).toEqual([
      "reseller-halberd-rechargeable-token",
      "reseller-usb-sensor",
      "gatekeeper-shipping",
    ]);
    // A distributor is never refused.
    await expect(page.getByRole("link", { name: "Start GateKeeper Enterprise Trial" })).toBeVisible();
  });

  test("'Build My Trial' posted twice at once, then double-clicked: every answer is the same trial's page", async ({
    page,
    portal,
  }) => {
    test.setTimeout(90_000);
    await resetTrials(portal.databaseUrl, DEMO.customer);
    await signInAs(page, DEMO.customer);
    await page.goto("/home");
    await startTrial(page, "On-Premise GateKeeper Hub");
    await trialFigures(page);
    await next(page, "Next: Hardware");
    await hardwareStep(page, 0, 0);
    await next(page, "Next: Review");
    await next(page, "Order Confirmation");
    await expect(page).toHaveURL(/\/order$/);

    // The Order page's form, posted twice at once (as two tabs, or a double click that reaches the server twice).
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Build My Trial" }) });
    const fields = {
      csrf: (await form.locator('input[name="csrf"]').inputValue()) ?? "",
      trialKey: (await form.locator('input[name="trialKey"]').inputValue()) ?? "",
      intent: "build",
    };
    const post = () =>
      page.request.post(page.url(), { form: fields, maxRedirects: 0, headers: { Origin: portal.baseURL } });
    const answers = await Promise.all([post(), post()]);
    const runs = answers.map((answer) => answer.headers()["location"]);
    expect(answers.map((answer) => answer.status())).toEqual([302, 302]);
    expect(runs[0]).toMatch(/^\/trial\/runs\/[\w-]+$/);
    expect(runs[1]).toBe(runs[0]);

    // The button on the page, double-clicked, once that trial has taken the customer's trial: its page again.
    await page.getByRole("button", { name: "Build My Trial" }).dblclick();
    await expect(page).toHaveURL(new RegExp(`${runs[0]}$`));
    await expect(page.getByText(READY)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("You have used up your trial.")).toHaveCount(0);
    expect(await trialCount(portal.databaseUrl, DEMO.customer)).toBe(1);
  });

  test("the trial license fails: 'Error Creating Trial License', nothing charged, and Try again builds it", async ({
    page,
    portal,
  }) => {
    test.setTimeout(90_000);
    const invoicesBefore = await customerWithFault(portal.databaseUrl, (db) =>
      refuseInserts(db, "refuse_trial_licenses", "licenses", "Injected failure.", "new.type = 'trial'"),
    );
    await signInAs(page, DEMO.customer);
    await onPremiseTrial(page, 1);
    await expect(page.getByRole("alert").filter({ hasText: "Error Creating Trial License" })).toContainText(
      "Your credit card was not charged.",
      { timeout: 30_000 },
    );
    expect((await hardwareInvoices(portal.databaseUrl, DEMO.customer)).length).toBe(invoicesBefore);
    await withDatabase(portal.databaseUrl, (db) => dropTrigger(db, "refuse_trial_licenses"));
    await next(page, "Try again");
    await expect(page.getByText(READY)).toBeVisible({ timeout: 30_000 });
    expect((await hardwareInvoices(portal.databaseUrl, DEMO.customer)).length).toBe(invoicesBefore + 1);
  });

  test("the Hub cannot be created: 'Error Creating Hub', and Try again finishes the cloud trial", async ({
    page,
    portal,
  }) => {
    test.setTimeout(90_000);
    await resetTrials(portal.databaseUrl, DEMO.distributor);
    await withDatabase(portal.databaseUrl, (db, t) =>
      armFault(db, t.hubFaults, { call: "createTenant", mode: "fail", message: "Injected failure." }),
    );
    await signInAs(page, DEMO.distributor);
    await startTrial(page, "Cloud GateKeeper Hub");
    await trialFigures(page);
    await page.locator('input[name="subdomain"]').fill(subdomainFor("failing-hub"));
    await next(page, "Next: Hub Admin");
    await page.locator('input[name="password"]').fill("Secret123");
    await page.locator('input[name="confirmPassword"]').fill("Secret123");
    await next(page, "Next: Hardware");
    await hardwareStep(page, 0, 0);
    await next(page, "Next: Review");
    await confirmAndBuild(page);
    await expect(page.getByRole("alert").filter({ hasText: "Error Creating Hub" })).toContainText(
      "Your credit card was not charged.",
      { timeout: 30_000 },
    );
    await next(page, "Try again");
    await expect(page.getByText(READY)).toBeVisible({ timeout: 30_000 });
  });

  test("the hardware purchase is refused: 'Hardware purchase failed.' and the trial still finishes", async ({
    page,
    portal,
  }) => {
    test.setTimeout(90_000);
    const invoicesBefore = await customerWithFault(portal.databaseUrl, (db, t) =>
      armFault(db, t.billingFaults, { call: "createHardwareInvoice", mode: "fail", message: "Card declined." }),
    );
    await signInAs(page, DEMO.customer);
    await onPremiseTrial(page, 2);
    await expect(page.getByText(READY)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("alert").filter({ hasText: "Hardware purchase failed." })).toContainText(
      "Please use the Store page to place your hardware order",
    );
    expect((await hardwareInvoices(portal.databaseUrl, DEMO.customer)).length).toBe(invoicesBefore);
    expect(await trialCount(portal.databaseUrl, DEMO.customer)).toBe(1);
  });

  test("hardware on a card whose bank asks for every payment waits for the cardholder and is charged once after the bank's page", async ({
    page,
    portal,
  }) => {
    test.setTimeout(120_000);
    const email = await signInAsNewCustomer(page, portal.databaseUrl, "sca-trial");
    await page.goto("/home");
    await startTrial(page, "On-Premise GateKeeper Hub");
    await trialFigures(page);
    await next(page, "Next: Hardware");
    await hardwareStep(page, 1, 0);
    // No card yet: the one entered in the step is saved through its bank's page, which returns to the step.
    await fillCardForm(page, "4000 0027 6000 3184", { holder: false });
    await next(page, "Save Card");
    await expect(page).toHaveURL(/\/cards\/authenticate\/seti_local_[\w-]+$/);
    await page.getByRole("button", { name: "Complete authentication" }).click();
    await expect(page).toHaveURL(/\/trial\/onpremise\/payment/);
    await page.getByRole("radio", { name: "Pay with Visa ending in 3184" }).check();
    await next(page, "Next: Review");
    await confirmAndBuild(page);
    const progress = new URL(page.url()).pathname;

    await expect(page.getByText("Your bank asks you to confirm this payment")).toBeVisible({ timeout: 30_000 });
    expect(await hardwareInvoices(portal.databaseUrl, email)).toHaveLength(0);
    if (javaScript()) await expectAccessible(page);
    await page.getByRole("link", { name: "Confirm the payment with your bank" }).click();
    await expect(page).toHaveURL(/\/cards\/authenticate\/pi_local_[\w-]+$/);
    const bankPage = page.url();
    await page.getByRole("button", { name: "Complete authentication" }).click();
    await expect(page).toHaveURL(new RegExp(`${progress}$`));
    await expect(page.getByText(READY)).toBeVisible({ timeout: 30_000 });
    expect(await hardwareInvoices(portal.databaseUrl, email)).toHaveLength(1);
    expect(await trialCount(portal.databaseUrl, email)).toBe(1);

    // The bank's page again: answered already, and its return charges nothing twice.
    await page.goto(bankPage);
    await page.getByRole("link", { name: "Return to the portal" }).click();
    await expect(page.getByText(READY)).toBeVisible({ timeout: 15_000 });
    expect(await hardwareInvoices(portal.databaseUrl, email)).toHaveLength(1);
  });
});
