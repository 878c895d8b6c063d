import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO, DEMO_PASSWORD, expect, signIn, signInAs, test } from "./fixtures";
import { acceptAsNewPerson, inviteTechnicalContact, linkFromOutbox } from "./invitations";
import { addBillingAddressInWizard, addCardInWizard, next, planStep } from "./purchase-steps";

/**
 * Accounts a company runs: sign-up verified through the mail, a forgotten password reset, and a team member
 * invited, working, refused what their role may not do, and removed. Mail is read where a fresh clone keeps it:
 * an administrator's /admin/outbox.
 */

const NEW_PASSWORD = "Fresh-start-2026";

async function signUp(page: Page, email: string) {
  await page.goto("/login");
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  // A name that carries a web address is no name: it would open the mail the portal sends.
  await page.getByLabel("First name").fill("Ada https://founder.example");
  await page.getByLabel("Last name").fill("Founder");
  await page.getByLabel("Company").fill("Founder Robotics");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill("short");
  await page.getByLabel("Confirm password").fill("short");
  await page.getByLabel("Country").selectOption("US");
  await page.getByRole("button", { name: "Create account" }).click();
  // Every message at its field, and nothing typed lost but the passwords.
  await expect(page.getByText("Doesn't match requirements.")).toBeVisible();
  await expect(page.getByText("A name cannot contain a web address (://).")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveValue("Ada https://founder.example");
  await expect(page.getByLabel("Company")).toHaveValue("Founder Robotics");
  await expect(page.getByLabel("Country")).toHaveValue("US");
  await page.getByLabel("First name").fill("Ada");
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirm password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
}

test.describe("signing up", () => {
  test.use({ expectedHttpErrors: [403, 422] });

  test("a new customer signs up, verifies the address through the mail, and buys a license", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const email = `ada-${randomUUID().slice(0, 8)}@founder.example`;
    await signUp(page, email);

    // Signed in but unverified: the portal says why buying waits, and the Store's wizard refuses.
    await signIn(page, email, NEW_PASSWORD);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await expect(page.getByText("Verify your email address.")).toBeVisible();
    await page.goto("/store/subscribe/plan");
    await expect(page.getByText(/^Verify your email address first/).first()).toBeVisible();
    await page.getByRole("button", { name: "Send the verification link again" }).click();
    await expect(page.getByText(`We sent a new verification link to ${email}.`)).toBeVisible();

    const link = await linkFromOutbox(
      browser,
      baseURL ?? "",
      email,
      "Verify your email address for the GateKeeper Portal",
      "/verify-email",
    );
    await page.goto(link);
    await page.getByRole("button", { name: "Verify my email address" }).click();
    await expect(page.getByText("Your email address is verified.")).toBeVisible();
    await expect(page.getByText("Verify your email address.")).toHaveCount(0);

    // Now a purchase: the card and billing address are added on the way.
    await page.goto("/store/subscribe/plan");
    await planStep(page, "Founder Robotics", "5");
    for (const label of ["Next: Hardware", "Next: Support", "Next: Review", "Next: Billing"]) await next(page, label);
    await addCardInWizard(page);
    await addBillingAddressInWizard(page, "415 555 0100");
    await next(page, "Next: Order");
    await page.getByRole("link", { name: "Submit Order" }).click();
    await page.getByRole("button", { name: "Purchase" }).click();
    await expect(page.getByText("Successfully created your GateKeeper Enterprise recurring license!")).toBeVisible({
      timeout: 20_000,
    });
  });
});

test.describe("a forgotten password", () => {
  test.use({ expectedHttpErrors: [422] });

  test("is reset through the mailed link, and every browser that was signed in is signed out", async ({
    page,
    browser,
    baseURL,
    javaScriptEnabled,
  }) => {
    test.setTimeout(90_000);
    const email = `reset-${randomUUID().slice(0, 8)}@founder.example`;
    await signUp(page, email);
    // A browser signed in before the reset.
    const other = await browser.newContext({ baseURL, javaScriptEnabled });
    const before = await other.newPage();
    await signIn(before, email, NEW_PASSWORD);
    await expect(before.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Email me a link" }).click();
    await expect(page.getByRole("status")).toContainText("we have sent it a link to set a new password");

    const link = await linkFromOutbox(
      browser,
      baseURL ?? "",
      email,
      "Set a new password for the GateKeeper Portal",
      "/reset-password",
    );
    await page.goto(link);
    await page.getByRole("textbox", { name: "Password", exact: true }).fill("weak");
    await page.getByLabel("Confirm password").fill("weak");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByText("Doesn't match requirements.")).toBeVisible();
    await page.getByRole("textbox", { name: "Password", exact: true }).fill(`${NEW_PASSWORD}!`);
    await page.getByLabel("Confirm password").fill(`${NEW_PASSWORD}!`);
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByText("Your password was changed")).toBeVisible();

    await before.goto("/licenses");
    await expect(before).toHaveURL(/\/login/);
    await other.close();
    await signIn(page, email, `${NEW_PASSWORD}!`);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  });
});

test.describe("a team", () => {
  test.use({ expectedHttpErrors: [403] });

  test("an Owner invites a Technical contact, who accepts, downloads a license and is refused a purchase; removed, their session ends", async ({
    page,
    browser,
    baseURL,
    javaScriptEnabled,
  }) => {
    test.setTimeout(120_000);
    const email = `tech-${randomUUID().slice(0, 8)}@northwind.example`;
    await signInAs(page, DEMO.customer);
    await page.goto("/account/team");
    await inviteTechnicalContact(page, page.getByRole("region", { name: "Invite someone" }), email);
    await expect(page.getByRole("table", { name: "Pending invitations" })).toContainText(email);

    const link = await linkFromOutbox(
      browser,
      baseURL ?? "",
      email,
      "You are invited to Northwind Clinics on the GateKeeper Portal",
      "/invitations",
    );
    const { context, person: member } = await acceptAsNewPerson(
      browser,
      { baseURL, javaScriptEnabled },
      link,
      "Northwind Clinics",
      ["Tess", "Tech"],
      DEMO_PASSWORD,
    );
    await expect(member.getByText("Northwind Clinics · Technical contact")).toBeVisible();

    // Licenses: downloads, but no purchase.
    await member.goto("/licenses");
    const download = member.waitForEvent("download");
    await member
      .getByRole("link", { name: /^Download license / })
      .first()
      .click();
    expect((await download).suggestedFilename()).toMatch(/^gatekeeper-license-GK-.*\.json$/);
    await expect(member.getByText(/which cannot buy licenses/).first()).toBeVisible();
    await member.goto("/store/subscribe/plan");
    await expect(
      member.getByText(/^Your role in Northwind Clinics is Technical contact, which cannot buy licenses/).first(),
    ).toBeVisible();

    // The Owner removes them: their open session ends at once.
    await page.goto("/account/team");
    await page.getByRole("link", { name: "Manage Tess Tech" }).click();
    await page.getByRole("button", { name: "Remove Tess Tech" }).click();
    await expect(page.getByText("The member was removed")).toBeVisible();
    await member.goto("/licenses");
    await expect(member).toHaveURL(/\/login/);
    await context.close();
  });
});

test.describe("an organization sales onboards by hand", () => {
  test.use({ expectedHttpErrors: [422] });

  test("an administrator opens an organization, sees it whole, and invites its first Owner, who joins and signs in as Owner", async ({
    page,
    browser,
    baseURL,
    javaScriptEnabled,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, DEMO.admin);

    // An organization with a history: its members, licenses and subscriptions in the product's words. The list is
    // paged, and organizations this worker's other tests opened may come first: it is searched.
    await page.goto("/admin/customers?q=Northwind+Clinics");
    await page.getByRole("link", { name: "Northwind Clinics", exact: true }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Northwind Clinics" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Members" })).toContainText(DEMO.customer);
    await expect(page.getByRole("table", { name: "Licenses" })).toContainText(/GK-/);
    const subscriptions = page.getByRole("table", { name: "Subscriptions" });
    await expect(subscriptions).toContainText(/\((Monthly|Annual) Billing\)/);
    await expect(subscriptions).toContainText("Active");
    // Not the provider's plan ids and status codes.
    await expect(subscriptions).not.toContainText(/(core|advanced|ultimate)-(monthly|yearly)|\b(active|cancelled)\b/);
    await expect(page.getByRole("heading", { name: "Jobs that need attention" })).toBeVisible();

    // A customer sales signed by hand: opened with no member, then its first Owner invited.
    const name = `Hand Onboarded ${randomUUID().slice(0, 6)}`;
    const email = `owner-${randomUUID().slice(0, 8)}@hand.example`;
    await page.goto("/admin/customers");
    const open = page.getByRole("region", { name: "Open an organization" });
    await open.getByRole("button", { name: "Open organization" }).click();
    await expect(page.getByText("Cannot be empty.")).toBeVisible();
    await open.getByLabel("Organization name").fill(name);
    await page.getByLabel("Type").selectOption("customer");
    await page.getByRole("button", { name: "Open organization" }).click();
    await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    await expect(page.getByText(`${name} was opened. Invite its first Owner.`)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Members (0)" })).toBeVisible();
    await expect(page.getByText("No member yet.")).toBeVisible();
    const invite = page.getByRole("region", { name: "Invite the first Owner" });
    await expect(invite.getByLabel("Role")).toHaveValue("owner");
    await invite.getByLabel("Email").fill(email);
    await invite.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByText(`We sent an invitation to ${email} as Owner.`)).toBeVisible();
    await expect(page.getByRole("table", { name: "Pending invitations" })).toContainText(email);

    const link = await linkFromOutbox(
      browser,
      baseURL ?? "",
      email,
      `You are invited to ${name} on the GateKeeper Portal`,
      "/invitations",
    );
    const { context, person: owner } = await acceptAsNewPerson(
      browser,
      { baseURL, javaScriptEnabled },
      link,
      name,
      ["Olive", "Owner"],
      NEW_PASSWORD,
    );
    await expect(owner.getByText(`${name} · Owner`)).toBeVisible();
    // As Owner, the team page is theirs.
    await owner.goto("/account/team");
    await expect(owner.getByRole("table", { name: "Members" })).toContainText("Olive Owner");
    await context.close();

    // The administrator's page shows its Owner.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Members (1)" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Members" })).toContainText("Owner");
    await expect(page.getByText("Invite a member")).toBeVisible();
  });
});
