import type { Browser, Locator, Page } from "@playwright/test";
import { DEMO, expect, servesPortal, signInAs } from "./fixtures";

/**
 * Invitations as people meet them: the mailed link, read where a fresh clone keeps mail (an administrator's
 * /admin/outbox), and accepted by someone new in a browser of their own.
 */

/** The address of the first link to `path` in the newest message with this subject to `to`, read by an administrator. */
export async function linkFromOutbox(browser: Browser, baseURL: string, to: string, subject: string, path: string) {
  const context = await browser.newContext({ baseURL });
  servesPortal(context, baseURL);
  const admin = await context.newPage();
  await signInAs(admin, DEMO.admin);
  await admin.goto("/admin/outbox");
  const message = admin.getByRole("region", { name: subject }).filter({ hasText: to }).first();
  await expect(message).toBeVisible();
  const href = await message
    .getByRole("link", { name: new RegExp(`${path}/`) })
    .first()
    .getAttribute("href");
  await context.close();
  if (!href) throw new Error(`No ${path} link mailed to ${to}`);
  return new URL(href).pathname;
}

/** A new person accepts the mailed invitation in a browser of their own: sets name and password, lands on Home. */
export async function acceptAsNewPerson(
  browser: Browser,
  { baseURL, javaScriptEnabled }: { baseURL: string | undefined; javaScriptEnabled: boolean },
  link: string,
  organization: string,
  [firstName, lastName]: [string, string],
  password: string,
) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const person = await context.newPage();
  await person.goto(link);
  await expect(person.getByRole("heading", { name: `Join ${organization}` })).toBeVisible();
  await person.getByLabel("First name").fill(firstName);
  await person.getByLabel("Last name").fill(lastName);
  await person.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await person.getByLabel("Confirm password").fill(password);
  await person.getByRole("button", { name: "Create account and join" }).click();
  await expect(person.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  return { context, person };
}

/** Sends a Technical contact's invitation from an invitation form (`form`, on `page`), and sees it sent. */
export async function inviteTechnicalContact(page: Page, form: Locator, email: string) {
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption("technical_contact");
  await form.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`We sent an invitation to ${email} as Technical contact.`)).toBeVisible();
}
