import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { knownDevices, oneTimeTokens, sessions } from "~/server/platform/database/tables.server";
import { loader as portalLoader } from "~/routes/_portal";
import { action as accountAction } from "~/routes/_portal.account";
import { action as loginAction } from "~/routes/login";
import { action as linkRequestAction } from "~/routes/login_.link";
import { action as linkAction, loader as linkLoader } from "~/routes/login_.link_.$token";
import { action as logoutAction } from "~/routes/logout";
import { db } from "~/server/platform/database/db.server";
import { hashPassword } from "~/server/platform/passwords.server";
import { outboxPage } from "~/server/mail/index.server";
import { UNTRUSTED_CHECKS_PER_HOUR } from "~/server/platform/throttle.server";
import { findUserByEmail } from "~/server/accounts/users.server";
import { createAccount } from "../support/members";
import { runJobs } from "../support/jobs";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

const PASSWORD = "GateKeeper-demo-1";

/** A sign-in post from `address`, in a browser holding `cookie`. */
async function postLogin(email: string, password: string, { address = "192.0.2.10", cookie = "" } = {}) {
  const request = await formRequest("/login", { email, password }, { cookie });
  return respond(() => loginAction({ request, params: {}, context: { clientAddress: address } }));
}

/** Cookie names and values a response sets, as a browser would keep them (a cleared cookie is dropped). */
function setCookies(response: Response): Record<string, string> {
  return Object.fromEntries(
    response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0].split("="))
      .map(([name, ...value]) => [name, value.join("=")]),
  );
}

/** A browser's cookie jar: what it held, with what a response set on top. */
const jar = (held: string, response: Response) => {
  const cookies = Object.fromEntries(held ? held.split("; ").map((pair) => pair.split(/=(.*)/s).slice(0, 2)) : []);
  for (const [name, value] of Object.entries(setCookies(response))) {
    if (value) cookies[name] = value;
    else delete cookies[name];
  }
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
};

const isSignedIn = async (cookie: string) =>
  (await respond(() => portalLoader({ request: getRequest("/home", cookie), params: {}, context: {} }))).status === 200;

/** 40 wrong passwords for the account from 8 addresses, all at once or one after another; their statuses. */
async function burst(email: string, { parallel }: { parallel: boolean }): Promise<number[]> {
  const guesses = Array.from(
    { length: 40 },
    (_, index) => () => postLogin(email, `wrong-${index}`, { address: `198.51.100.${index % 8}` }),
  );
  if (parallel) return (await Promise.all(guesses.map((guess) => guess()))).map((response) => response.status);
  const statuses = [];
  for (const guess of guesses) statuses.push((await guess()).status);
  return statuses;
}

/**
 * An account of its own for a test, so that another test's burst has not paused it. Its hash is made at a low
 * cost: each guess is checked at the stored hash's cost, and these tests count checks, not their price.
 */
async function account(email: string) {
  await createAccount(email, await hashPassword(PASSWORD, { N: 2 ** 12, r: 8, p: 1 }));
  return email;
}

const checked = (statuses: number[]) => statuses.filter((status) => status === 401).length;

describe("a burst of wrong passwords", { timeout: 180_000 }, () => {
  it("checks no more passwords in parallel from 8 addresses than in sequence, and never locks the owner out", async () => {
    // The distributor signed in from this browser before: it is a known device of the account.
    const ownersBrowser = cookieFrom((await postLogin("distributor@example.com", PASSWORD)).headers.get("Set-Cookie"));
    const sequential = await burst("admin@example.com", { parallel: false });
    const parallel = await burst("distributor@example.com", { parallel: true });
    expect(checked(sequential)).toBe(UNTRUSTED_CHECKS_PER_HOUR);
    expect(checked(parallel)).toBeLessThanOrEqual(checked(sequential));
    expect(parallel.filter((status) => status === 429)).toHaveLength(40 - checked(parallel));

    // The owner's known browser signs in; a new one is told sign-in is paused, and offered a mailed link.
    expect((await postLogin("distributor@example.com", PASSWORD, { cookie: ownersBrowser })).status).toBe(302);
    const newBrowser = await postLogin("distributor@example.com", PASSWORD, { address: "203.0.113.40" });
    expect(newBrowser.status).toBe(429);
    expect(newBrowser.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await newBrowser.json()).toMatchObject({
      formError: expect.stringMatching(/^Signing in to this account from a new browser is paused for \d+ minutes/),
      offerSignInLink: true,
    });
  });
});

describe("the mailed sign-in link", { timeout: 60_000 }, () => {
  const requestLink = async (email: string, address = "192.0.2.60") => {
    const request = await formRequest("/login/link", { email, redirectTo: "/licenses" });
    return respond(() => linkRequestAction({ request, params: {}, context: { clientAddress: address } }));
  };
  const linkIn = (message: { text: string }) =>
    /(http:\/\/portal\.test\/login\/link\/[A-Za-z0-9_-]{43})/.exec(message.text)?.[1];

  it("is mailed to the account's address, signs its owner in past the pause once, and leads where they were going", async () => {
    for (let failure = 0; failure < UNTRUSTED_CHECKS_PER_HOUR; failure += 1) {
      await postLogin("customer@example.com", "wrong", { address: `203.0.113.${failure}` });
    }
    expect((await postLogin("customer@example.com", PASSWORD, { address: "192.0.2.61" })).status).toBe(429);

    const asked = await requestLink("customer@example.com");
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({ sent: true, email: "customer@example.com" });
    await runJobs();
    const [message] = (await outboxPage(1, 1)).messages;
    expect(message).toMatchObject({
      to: "customer@example.com",
      subject: "Your sign-in link for the GateKeeper Portal",
    });
    const url = linkIn(message);
    expect(url, message.text).toBeTruthy();
    expect(message.html).toContain(`href="${url}"`);
    // Only the token's hash is kept.
    const token = url?.split("/").at(-1) ?? "";
    expect((await db.select().from(oneTimeTokens)).map((row) => row.id)).not.toContain(token);

    const path = new URL(url ?? "").pathname;
    const opened = await respond(async () => linkLoader({ request: getRequest(path), params: { token }, context: {} }));
    expect(await opened.json()).toMatchObject({ account: { email: "customer@example.com" } });
    const used = await respond(async () =>
      linkAction({ request: await formRequest(path, {}), params: { token }, context: {} }),
    );
    expect(used.status).toBe(302);
    expect(used.headers.get("Location")).toBe("/licenses");
    const browser = jar("", used);
    expect(await isSignedIn(browser)).toBe(true);
    // The browser the link signed in is a known device now: the pause no longer applies to it.
    expect((await postLogin("customer@example.com", PASSWORD, { address: "192.0.2.61", cookie: browser })).status).toBe(
      302,
    );

    const again = await respond(async () =>
      linkAction({ request: await formRequest(path, {}), params: { token }, context: {} }),
    );
    expect(again.status).toBe(410);
    const reopened = await respond(async () =>
      linkLoader({ request: getRequest(path), params: { token }, context: {} }),
    );
    expect(reopened.status).toBe(410);
  });

  it("expires after 15 minutes", async () => {
    await requestLink(await account("expiring@example.com"), "192.0.2.62");
    await runJobs();
    const token =
      linkIn((await outboxPage(1, 1)).messages[0])
        ?.split("/")
        .at(-1) ?? "";
    await db.update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1) });
    const used = await respond(async () =>
      linkAction({ request: await formRequest(`/login/link/${token}`, {}), params: { token }, context: {} }),
    );
    expect(used.status).toBe(410);
  });

  it("answers the same for an address without an account, and mails nothing", async () => {
    const before = (await outboxPage(1, 1)).total;
    const answer = await requestLink("no-such-account@example.com", "192.0.2.63");
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ sent: true, email: "no-such-account@example.com" });
    await runJobs();
    expect((await outboxPage(1, 1)).total).toBe(before);
  });

  it("is throttled per address, with Retry-After", async () => {
    const statuses = [];
    for (let request = 0; request < 4; request += 1)
      statuses.push(await requestLink("throttled@example.com", `192.0.2.${70 + request}`));
    expect(statuses.map((response) => response.status)).toEqual([200, 200, 200, 429]);
    expect(statuses[3].headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

describe("the known-device cookie", { timeout: 60_000 }, () => {
  it("is a random token that names no one, kept hashed, replaced at each sign-in and forgotten at sign-out", async () => {
    const email = await account("devices@example.com");
    const first = await postLogin(email, PASSWORD, { address: "192.0.2.80" });
    const device = setCookies(first).__gk_device ?? "";
    const token = JSON.parse(Buffer.from(decodeURIComponent(device).split(".")[0], "base64").toString()) as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(decodeURIComponent(device)).not.toMatch(/distributor|example/);
    const user = await findUserByEmail(email);
    const rows = () =>
      db
        .select()
        .from(knownDevices)
        .where(eq(knownDevices.userId, user?.id ?? ""));
    expect((await rows()).map((row) => row.id)).not.toContain(token);

    const browser = jar("", first);
    const again = await postLogin(email, PASSWORD, { address: "192.0.2.80", cookie: browser });
    expect(setCookies(again).__gk_device).not.toBe(device);
    const count = (await rows()).length;

    const signedOut = await respond(async () =>
      logoutAction({
        request: await formRequest("/logout", {}, { cookie: jar(browser, again) }),
        params: {},
        context: {},
      }),
    );
    expect(signedOut.headers.getSetCookie().find((cookie) => cookie.startsWith("__gk_device="))).toMatch(
      /^__gk_device=;.*Expires=Thu, 01 Jan 1970/i,
    );
    expect(await rows()).toHaveLength(count - 1);
  });
});

describe("signing out everywhere else", { timeout: 60_000 }, () => {
  it("forgets the user's other browsers: whoever holds one meets the pause like a stranger", async () => {
    const email = await account("elsewhere@example.com");
    const here = jar("", await postLogin(email, PASSWORD, { address: "192.0.2.95" }));
    const there = jar("", await postLogin(email, PASSWORD, { address: "192.0.2.96" }));
    const user = await findUserByEmail(email);
    const devices = () =>
      db
        .select()
        .from(knownDevices)
        .where(eq(knownDevices.userId, user?.id ?? ""));
    expect(await devices()).toHaveLength(2);
    const request = await formRequest("/account", { subaction: "sign-out-others" }, { cookie: here });
    expect((await respond(() => accountAction({ request, params: {}, context: {} }))).status).toBe(302);
    expect(await devices()).toHaveLength(1);
    for (let failure = 0; failure < UNTRUSTED_CHECKS_PER_HOUR; failure += 1) {
      await postLogin(email, "wrong", { address: `203.0.113.${100 + failure}` });
    }
    expect((await postLogin(email, PASSWORD, { address: "192.0.2.96", cookie: there })).status).toBe(429);
    expect((await postLogin(email, PASSWORD, { address: "192.0.2.95", cookie: here })).status).toBe(302);
  });
});

describe("signing in on a browser that holds a session", { timeout: 60_000 }, () => {
  it("ends that session: its cookie opens nothing afterwards", async () => {
    const [one, other] = [await account("one@example.com"), await account("other@example.com")];
    const first = jar("", await postLogin(one, PASSWORD, { address: "192.0.2.90" }));
    const firstSessions = (await db.select().from(sessions)).length;
    const second = await postLogin(other, PASSWORD, { address: "192.0.2.90", cookie: first });
    expect(second.status).toBe(302);
    expect(await db.select().from(sessions)).toHaveLength(firstSessions);
    expect(await isSignedIn(first)).toBe(false);
    expect(await isSignedIn(jar(first, second))).toBe(true);
  });
});
