import { createHash } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { action as forgotAction } from "~/routes/forgot-password";
import { action as loginAction } from "~/routes/login";
import { action as resetAction, loader as resetLoader } from "~/routes/reset-password.$token";
import { action as signUpAction } from "~/routes/signup";
import { loader as planLoader } from "~/routes/_portal.store.subscribe.plan";
import { action as verifyAction, loader as verifyLoader } from "~/routes/verify-email_.$token";
import { action as resendAction } from "~/routes/verify-email";
import { db } from "~/server/platform/database/db.server";
import { outboxPage } from "~/server/mail/index.server";
import { UNTRUSTED_CHECKS_PER_HOUR } from "~/server/platform/throttle.server";
import { oneTimeTokens, organizations, sessions, users } from "~/server/platform/database/tables.server";
import { runJobs } from "../support/jobs";
import { memberByEmail } from "../support/members";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";
import { NEW_PASSWORD, signUpForm } from "../support/sign-in";

/** Sign-up, email verification and password reset, through their pages' loaders and actions. */

const PASSWORD = NEW_PASSWORD;
const HOUR = 60 * 60 * 1000;

afterEach(() => vi.useRealTimers());

const post = async (
  action: (args: ActionFunctionArgs) => Promise<unknown>,
  path: string,
  fields: Record<string, string>,
  {
    params = {},
    cookie = "",
    client = "203.0.113.1",
  }: { params?: Record<string, string>; cookie?: string; client?: string } = {},
) =>
  respond(async () =>
    action({ request: await formRequest(path, fields, { cookie }), params, context: { clientAddress: client } }),
  );

/** The newest kept message to the address, after the mail jobs ran. */
async function lastMailTo(email: string) {
  await runJobs();
  return (await outboxPage(1, 50)).messages.find((message) => message.to === email) ?? null;
}

/** The token of the first link to `path` in the message's text. */
function linkToken(text: string, path: string): string {
  const match = new RegExp(`${path}/([A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`No ${path} link in: ${text}`);
  return match[1];
}

async function signIn(email: string, password: string) {
  return post(loginAction, "/login", { email, password }, { client: `198.51.100.${Math.floor(Math.random() * 200)}` });
}

describe("sign-up", { timeout: 60_000 }, () => {
  it("makes an organization with its first person as Owner, unverified, and mails a hashed single-use link valid 24 hours", async () => {
    const email = "nora@newman.example";
    const response = await post(signUpAction, "/signup", signUpForm(email));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ sent: true, email });
    const { user, organization, role } = await memberByEmail(email);
    expect(role).toBe("owner");
    expect(user.emailVerifiedAt).toBeNull();
    expect(organization).toMatchObject({ name: "Newman Labs", country: "DE", customerType: "customer" });

    const mail = await lastMailTo(email);
    expect(mail?.subject).toBe("Verify your email address for the GateKeeper Portal");
    const token = linkToken(mail!.text, "/verify-email");
    // Only the token's SHA-256 is kept.
    const [stored] = await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, user.id));
    expect(stored.id).toBe(createHash("sha256").update(token).digest("hex"));
    expect(stored.id).not.toContain(token);
    expect(stored.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * HOUR);
    expect(stored.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(24 * HOUR);

    // Until verified: signed in, they look around, but the Store's wizard is refused with the reason.
    const cookie = cookieFrom((await signIn(email, PASSWORD)).headers.get("Set-Cookie"));
    const refused = await respond(async () =>
      planLoader({ request: getRequest("/store/subscribe/plan", cookie), params: {}, context: {} }),
    );
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      verifyEmail: true,
      message: expect.stringMatching(/^Verify your email/),
    });

    // Opening the link only asks; the click verifies, once.
    const opened = await (
      await respond(async () =>
        verifyLoader({ request: getRequest(`/verify-email/${token}`), params: { token }, context: {} }),
      )
    ).json();
    expect(opened.email).toBe(email);
    expect((await memberByEmail(email)).user.emailVerifiedAt).toBeNull();
    const verified = await post(verifyAction, `/verify-email/${token}`, {}, { params: { token }, cookie });
    expect(verified.headers.get("Location")).toBe("/home");
    expect((await memberByEmail(email)).user.emailVerifiedAt).not.toBeNull();
    expect((await post(verifyAction, `/verify-email/${token}`, {}, { params: { token } })).status).toBe(410);
    const allowed = await respond(async () =>
      planLoader({ request: getRequest("/store/subscribe/plan", cookie), params: {}, context: {} }),
    );
    expect(allowed.status).toBe(200);
  });

  it("answers an address that has an account exactly as a new one, creates nothing, and tells its owner someone tried", async () => {
    const before = (await db.select().from(organizations)).length;
    const taken = await post(signUpAction, "/signup", signUpForm("customer@example.com"));
    const fresh = await post(signUpAction, "/signup", signUpForm("someone-new@example.com"));
    expect(taken.status).toBe(fresh.status);
    expect(Object.keys(await taken.json())).toEqual(Object.keys(await fresh.json()));
    expect((await db.select().from(organizations)).length).toBe(before + 1);
    const users_ = await db.select().from(users).where(eq(users.email, "customer@example.com"));
    expect(users_).toHaveLength(1);
    expect((await lastMailTo("customer@example.com"))?.subject).toBe(
      "Someone tried to create a GateKeeper Portal account with your address",
    );
    // The existing account's password is unchanged.
    expect((await signIn("customer@example.com", PASSWORD)).status).toBe(401);
  });

  it("keeps what was typed and says what is wrong next to each field; never echoes the password", async () => {
    const response = await post(signUpAction, "/signup", {
      ...signUpForm("not-an-address"),
      new_password: "short",
      confirm_password: "other",
      country: "",
    });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.errors).toMatchObject({
      email: "Invalid Email",
      new_password: "Doesn't match requirements.",
      confirm_password: "Doesn't match new password.",
      country: "Please select your country.",
    });
    expect(body.typed).toMatchObject({ firstName: "Nora", company: "Newman Labs", email: "not-an-address" });
    expect(JSON.stringify(body)).not.toContain("short");
    expect(body.unmet).toEqual(["length", "digit", "uppercase", "symbol"]);
  });

  it("a guessed or altered link opens nothing", async () => {
    const email = "guess@newman.example";
    await post(signUpAction, "/signup", signUpForm(email));
    const token = linkToken((await lastMailTo(email))!.text, "/verify-email");
    // 256 random bits, as base64url.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const guess of [altered, "A".repeat(43), ""]) {
      const opened = await (
        await respond(async () =>
          verifyLoader({ request: getRequest(`/verify-email/${guess}`), params: { token: guess }, context: {} }),
        )
      ).json();
      expect(opened.email).toBeNull();
      expect((await post(verifyAction, `/verify-email/${guess}`, {}, { params: { token: guess } })).status).toBe(410);
      const reset = await post(
        resetAction,
        `/reset-password/${guess}`,
        { new_password: PASSWORD, confirm_password: PASSWORD },
        { params: { token: guess } },
      );
      expect(reset.status).toBe(410);
    }
    expect((await memberByEmail(email)).user.emailVerifiedAt).toBeNull();
  });

  it("refuses a verification link past its 24 hours", async () => {
    const email = "late@newman.example";
    await post(signUpAction, "/signup", signUpForm(email));
    const token = linkToken((await lastMailTo(email))!.text, "/verify-email");
    vi.useFakeTimers({ now: Date.now() + 24 * HOUR + 60_000, toFake: ["Date"] });
    expect((await post(verifyAction, `/verify-email/${token}`, {}, { params: { token } })).status).toBe(410);
    expect((await memberByEmail(email)).user.emailVerifiedAt).toBeNull();
  });

  it("sends the link again three times an hour at most", async () => {
    const email = "again@newman.example";
    await post(signUpAction, "/signup", signUpForm(email));
    const cookie = cookieFrom((await signIn(email, PASSWORD)).headers.get("Set-Cookie"));
    const messages: string[] = [];
    for (let n = 0; n < 4; n += 1) {
      const response = await post(resendAction, "/verify-email", { redirectTo: "/home" }, { cookie });
      messages.push(response.headers.get("Location") ?? "");
    }
    await runJobs();
    const sent = (await outboxPage(1, 50)).messages.filter((message) => message.to === email);
    // The sign-up's link and three more.
    expect(sent).toHaveLength(4);
  });

  it("is throttled per address: a fourth sign-up with one address within the hour waits", async () => {
    const statuses = [];
    for (let n = 0; n < 4; n += 1) {
      statuses.push(
        (await post(signUpAction, "/signup", signUpForm("flood@newman.example"), { client: `192.0.2.${n}` })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe("password reset", { timeout: 60_000 }, () => {
  it("answers the same whether or not the address has an account, and mails only an account", async () => {
    const known = await post(forgotAction, "/forgot-password", { email: "distributor@example.com" });
    const unknown = await post(forgotAction, "/forgot-password", { email: "nobody@nowhere.example" });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(Object.keys(await known.json())).toEqual(Object.keys(await unknown.json()));
    expect((await lastMailTo("distributor@example.com"))?.subject).toBe("Set a new password for the GateKeeper Portal");
    expect(await lastMailTo("nobody@nowhere.example")).toBeNull();
  });

  it("sets the new password once, signs every browser out, and mails a notice", async () => {
    const email = "customer@example.com";
    const first = cookieFrom((await signIn(email, "GateKeeper-demo-1")).headers.get("Set-Cookie"));
    await signIn(email, "GateKeeper-demo-1");
    const { user } = await memberByEmail(email);
    expect((await db.select().from(sessions).where(eq(sessions.userId, user.id))).length).toBeGreaterThanOrEqual(2);
    await post(forgotAction, "/forgot-password", { email });
    const token = linkToken((await lastMailTo(email))!.text, "/reset-password");
    const page = await (
      await respond(async () =>
        resetLoader({ request: getRequest(`/reset-password/${token}`), params: { token }, context: {} }),
      )
    ).json();
    expect(page.email).toBe(email);

    const weak = await post(
      resetAction,
      `/reset-password/${token}`,
      { new_password: "weak", confirm_password: "weak" },
      { params: { token } },
    );
    expect(weak.status).toBe(422);
    const done = await post(
      resetAction,
      `/reset-password/${token}`,
      { new_password: PASSWORD, confirm_password: PASSWORD },
      { params: { token } },
    );
    expect(done.headers.get("Location")).toBe("/login");
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(first).not.toBe("");
    expect((await lastMailTo(email))?.subject).toBe("Your GateKeeper Portal password was changed");
    expect((await signIn(email, PASSWORD)).status).toBe(302);
    // Used: a second post changes nothing.
    const again = await post(
      resetAction,
      `/reset-password/${token}`,
      { new_password: "Another-pass-22", confirm_password: "Another-pass-22" },
      { params: { token } },
    );
    expect(again.status).toBe(410);
    expect((await signIn(email, PASSWORD)).status).toBe(302);
  });

  it("while a stranger's guesses pause sign-in, also offers the one-time sign-in link that passes the pause", async () => {
    const email = "technical@example.com";
    for (let failure = 0; failure < UNTRUSTED_CHECKS_PER_HOUR; failure += 1) {
      await post(loginAction, "/login", { email, password: "wrong" }, { client: `203.0.113.${100 + failure}` });
    }
    await post(forgotAction, "/forgot-password", { email });
    const mail = await lastMailTo(email);
    expect(mail?.text).toMatch(/\/reset-password\/[A-Za-z0-9_-]+/);
    const signInToken = linkToken(mail!.text, "/login/link");
    expect(mail?.html).toContain(`/login/link/${signInToken}`);
  });

  it("refuses a link past its hour", async () => {
    await post(forgotAction, "/forgot-password", { email: "distributor@example.com" });
    const token = linkToken((await lastMailTo("distributor@example.com"))!.text, "/reset-password");
    vi.useFakeTimers({ now: Date.now() + HOUR + 60_000, toFake: ["Date"] });
    const late = await post(
      resetAction,
      `/reset-password/${token}`,
      { new_password: PASSWORD, confirm_password: PASSWORD },
      { params: { token } },
    );
    expect(late.status).toBe(410);
  });

  it("is throttled per address and per client, whether or not the address has an account", async () => {
    const perAddress = [];
    for (let n = 0; n < 4; n += 1) {
      perAddress.push(
        (
          await post(
            forgotAction,
            "/forgot-password",
            { email: "ghost@nowhere.example" },
            { client: `192.0.2.${50 + n}` },
          )
        ).status,
      );
    }
    expect(perAddress).toEqual([200, 200, 200, 429]);
    const perClient = [];
    for (let n = 0; n < 11; n += 1) {
      perClient.push(
        (
          await post(
            forgotAction,
            "/forgot-password",
            { email: `ghost-${n}@nowhere.example` },
            { client: "192.0.2.99" },
          )
        ).status,
      );
    }
    expect(perClient.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(perClient[10]).toBe(429);
  });
});
