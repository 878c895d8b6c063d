import { randomUUID } from "node:crypto";
import { request as http } from "node:http";
import type { Browser, Page } from "@playwright/test";
import { eq, inArray } from "drizzle-orm";
import { insertAccount, withDatabase } from "./database";
import { DEMO, expect, servesPortal, signIn, signInAs, test } from "./fixtures";

/**
 * A stranger's failed guesses, from many addresses, pause signing in to an account from browsers it does not
 * know; its owner still gets in: from a browser they signed in with before, and on a new one through a
 * one-time link mailed to the account (read here from the outbox, as on a portal without SMTP).
 */

/** An account of this test's own, so that pausing it leaves the demo accounts to the other tests. */
async function newAccount(databaseUrl: string): Promise<string> {
  const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
  await withDatabase(databaseUrl, (db) =>
    insertAccount(db, {
      id: randomUUID(),
      email,
      firstName: "Olive",
      lastName: "Owner",
      company: "Olive Gardens",
    }),
  );
  return email;
}

/** One request from a source address of loopback's own (127.0.0.0/8): a client at another address. */
function from(
  baseURL: string,
  localAddress: string,
  {
    method,
    path,
    headers = {},
    body,
  }: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string; cookies: string[] }> {
  return new Promise((resolve, reject) => {
    const request = http(new URL(path, baseURL), { method, headers, localAddress }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: text, cookies: response.headers["set-cookie"] ?? [] }),
      );
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** A stranger's wrong password for the account, from `localAddress`; the status it got. */
async function wrongPassword(baseURL: string, email: string, localAddress: string): Promise<number> {
  const page = await from(baseURL, localAddress, { method: "GET", path: "/login" });
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? "";
  const cookie = page.cookies.map((setCookie) => setCookie.split(";")[0]).join("; ");
  const body = new URLSearchParams({ email, password: "not-the-password", csrf }).toString();
  const answer = await from(baseURL, localAddress, {
    method: "POST",
    path: "/login",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body,
  });
  return answer.status;
}

/** Guesses from eight addresses until the account's new browsers are paused. */
async function strangersGuess(baseURL: string, email: string) {
  const statuses = [];
  for (let guess = 0; guess < 16; guess += 1)
    statuses.push(await wrongPassword(baseURL, email, `127.0.0.${2 + (guess % 8)}`));
  expect(statuses).toContain(429);
}

/** The sign-in link mailed to `email`, as an administrator reads it in the outbox. */
async function linkFromOutbox(browser: Browser, baseURL: string, javaScriptEnabled: boolean, email: string) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  servesPortal(context, baseURL);
  const admin = await context.newPage();
  await signInAs(admin, DEMO.admin);
  await admin.goto("/admin/outbox");
  const message = admin
    .getByRole("region", { name: "Your sign-in link for the GateKeeper Portal" })
    .filter({ hasText: email });
  await expect(message.first()).toBeVisible();
  const link = message.first().getByRole("link", { name: /\/login\/link\// });
  const href = (await link.getAttribute("href")) ?? "";
  await context.close();
  return href;
}

const PAUSED =
  /Signing in to this account from a new browser is paused for \d+ minutes? after too many failed attempts\./;

async function expectPaused(page: Page, email: string) {
  await signIn(page, email);
  await expect(page.getByRole("alert")).toContainText(PAUSED);
}

test.describe("signing in while a stranger guesses the password", () => {
  test.use({ expectedHttpErrors: [429] });

  test("a new browser is told sign-in is paused, and gets in through the link mailed to the account, once", async ({
    page,
    portal,
    browser,
    baseURL,
    javaScriptEnabled,
  }) => {
    test.setTimeout(120_000);
    const email = await newAccount(portal.databaseUrl);
    await strangersGuess(portal.baseURL, email);

    await expectPaused(page, email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.getByRole("status")).toContainText(
      `If an account uses ${email}, we have sent it a sign-in link.`,
    );

    const href = await linkFromOutbox(browser, baseURL ?? "", javaScriptEnabled, email);
    expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\/link\/[\w-]{43}$/);
    await page.goto(href);
    await expect(page.getByText(`Sign in to the GateKeeper Portal as ${email}.`)).toBeVisible();
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

    // Used once: the same link again says so.
    const again = await page.context().browser()?.newContext({ baseURL, javaScriptEnabled });
    const second = await again?.newPage();
    if (!second || !again) throw new Error("no second browser");
    await second.goto(href);
    await expect(second.getByRole("alert")).toContainText("It has expired or has already been used.");
    await again.close();
  });

  test("the owner's browser that signed in before still signs in during the pause", async ({ page, portal }) => {
    test.setTimeout(120_000);
    const email = await newAccount(portal.databaseUrl);
    await signIn(page, email);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await page.getByText("Olive Owner").click();
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    // Signed out, this browser is a stranger again (decision 170); it signs in once more to be known.
    await signIn(page, email);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    const known = await page.context().storageState();

    await strangersGuess(portal.baseURL, email);
    const knownContext = await page.context().browser()?.newContext({ storageState: known, baseURL: portal.baseURL });
    const sameBrowser = await knownContext?.newPage();
    if (!sameBrowser || !knownContext) throw new Error("no browser");
    // The session is ended on the server, as after a sign-out elsewhere; the device cookie stays.
    await withDatabase(portal.databaseUrl, (db, t) =>
      db
        .delete(t.sessions)
        .where(inArray(t.sessions.userId, db.select({ id: t.users.id }).from(t.users).where(eq(t.users.email, email)))),
    );
    await signIn(sameBrowser, email);
    await expect(sameBrowser.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await knownContext.close();
  });
});
