import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions, users } from "~/server/platform/database/tables.server";
import { action as accountAction, loader as accountLoader } from "~/routes/_portal.account";
import { action as loginAction, loader as loginLoader } from "~/routes/login";
import { action as logoutAction } from "~/routes/logout";
import { action as sidebarAction } from "~/routes/preferences.sidebar";
import { db } from "~/server/platform/database/db.server";
import { COST, hashPassword, verifyPassword } from "~/server/platform/passwords.server";
import { ABSOLUTE_MS, IDLE_MS } from "~/server/accounts/session.server";
import { findUserByEmail } from "~/server/accounts/users.server";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

const PASSWORD = "GateKeeper-demo-1";

async function signIn(email: string, password = PASSWORD, redirectTo = ""): Promise<Response> {
  const request = await formRequest("/login", { email, password, redirectTo });
  request.headers.set("User-Agent", `Test browser for ${email}`);
  return respond(() => loginAction({ request, params: {}, context: { clientAddress: "192.0.2.50" } }));
}

async function cookieOf(email: string, password = PASSWORD) {
  const response = await signIn(email, password);
  expect(response.status).toBe(302);
  return cookieFrom(response.headers.get("Set-Cookie"));
}

const openAccount = (cookie: string) =>
  respond(() => accountLoader({ request: getRequest("/account", cookie), params: {}, context: {} }));
const postAccount = async (cookie: string, fields: Record<string, string>) =>
  respond(async () =>
    accountAction({ request: await formRequest("/account", fields, { cookie }), params: {}, context: {} }),
  );

describe("open redirects", { timeout: 60_000 }, () => {
  it("send a signed-in visitor of /login?redirectTo=/\\t/evil.example/ home, and the sidebar form too", async () => {
    const cookie = await cookieOf("customer@example.com");
    const fromLogin = await respond(() =>
      loginLoader({
        request: getRequest("/login?redirectTo=%2F%09%2Fevil.example%2F", cookie),
        params: {},
        context: {},
      }),
    );
    expect(fromLogin.headers.get("Location")).toBe("/home");
    const afterSignIn = await signIn("customer@example.com", PASSWORD, "/\\evil.example");
    expect(afterSignIn.headers.get("Location")).toBe("/home");
    const fromSidebar = await respond(async () =>
      sidebarAction({
        request: await formRequest(
          "/preferences/sidebar",
          { sidebar: "open", redirectTo: "/\t/evil.example/" },
          { cookie },
        ),
        params: {},
        context: {},
      }),
    );
    expect(fromSidebar.headers.get("Location")).toBe("/home");
  });
});

describe("server-side sessions", { timeout: 60_000 }, () => {
  it("put only a random token in the cookie, and keep who it is on the server", async () => {
    const response = await signIn("distributor@example.com");
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    const token = /__gk_session=([^;]+)/.exec(setCookie)?.[1] ?? "";
    const payload = Buffer.from(decodeURIComponent(token).split(".")[0], "base64").toString();
    expect(payload).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const user = await findUserByEmail("distributor@example.com");
    const rows = await db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user?.id ?? ""));
    expect(rows).toContainEqual(expect.objectContaining({ userAgent: "Test browser for distributor@example.com" }));
  });

  it("end at sign-out: a copy of the cookie taken before opens nothing", async () => {
    const cookie = await cookieOf("customer@example.com");
    expect((await openAccount(cookie)).status).toBe(200);
    const out = await respond(async () =>
      logoutAction({ request: await formRequest("/logout", {}, { cookie }), params: {}, context: {} }),
    );
    expect(out.headers.get("Location")).toBe("/login");
    const copied = await openAccount(cookie);
    expect(copied.status).toBe(302);
    expect(copied.headers.get("Location")).toBe("/login?redirectTo=%2Faccount");
  });

  it("end everywhere else when the password changes, and with 'Sign out everywhere else'", async () => {
    const email = "admin@example.com";
    const here = await cookieOf(email);
    const elsewhere = await cookieOf(email);
    const changed = await postAccount(here, {
      subaction: "password",
      old_password: PASSWORD,
      new_password: "Brand-new-pass-1",
      confirm_password: "Brand-new-pass-1",
    });
    expect(changed.status).toBe(302);
    expect((await openAccount(here)).status).toBe(200);
    expect((await openAccount(elsewhere)).status).toBe(302);

    const third = await cookieOf(email, "Brand-new-pass-1");
    const listed = await (await openAccount(here)).json();
    expect(listed.sessions.map((session: { current: boolean }) => session.current).sort()).toEqual([false, true]);
    expect((await postAccount(here, { subaction: "sign-out-others" })).status).toBe(302);
    expect((await openAccount(third)).status).toBe(302);
    expect((await openAccount(here)).status).toBe(200);
  });

  it("expire after the idle time and at the absolute end", async () => {
    const user = await findUserByEmail("customer@example.com");
    const idle = await cookieOf("customer@example.com");
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - IDLE_MS - 1000) })
      .where(eq(sessions.userId, user?.id ?? ""));
    expect((await openAccount(idle)).status).toBe(302);
    const old = await cookieOf("customer@example.com");
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000), createdAt: new Date(Date.now() - ABSOLUTE_MS) })
      .where(eq(sessions.userId, user?.id ?? ""));
    expect((await openAccount(old)).status).toBe(302);
  });
});

describe("passwords and CSRF", { timeout: 60_000 }, () => {
  it("re-hash a password stored at an older cost on the next sign-in", async () => {
    const email = "distributor@example.com";
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD, { ...COST, N: COST.N / 2 }) })
      .where(eq(users.email, email));
    await cookieOf(email);
    const stored = (await findUserByEmail(email))?.passwordHash ?? "";
    expect(stored).toMatch(new RegExp(`^scrypt\\$${COST.N}\\$8\\$1\\$`));
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
  });

  it("throttle the password change form", async () => {
    const cookie = await cookieOf("customer@example.com");
    const wrong = {
      subaction: "password",
      old_password: "Not-the-password-1",
      new_password: "Brand-new-pass-1",
      confirm_password: "Brand-new-pass-1",
    };
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const body = await (await postAccount(cookie, wrong)).json();
      expect(body.fieldErrors.old_password).toBe("The current password is incorrect.");
    }
    const body = await (await postAccount(cookie, wrong)).json();
    expect(body.fieldErrors.old_password).toMatch(
      /^Too many password change attempts\. Please wait \d+ minutes? and try again\.$/,
    );
  });

  it("bind the CSRF token to the session: another session's (or an anonymous) token is refused", async () => {
    const mine = await cookieOf("distributor@example.com");
    const theirs = await cookieOf("distributor@example.com");
    const theirToken = (await formRequest("/account", {}, { cookie: theirs })).clone();
    const token = new URLSearchParams(await theirToken.text()).get("csrf") ?? "";
    const csrfCookieOfTheirs = theirs.split("; ").find((pair) => pair.startsWith("__gk_csrf=")) ?? "";
    const sessionOfMine = mine.split("; ").find((pair) => pair.startsWith("__gk_session=")) ?? "";
    const forged = new Request("http://portal.test/account", {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: `${sessionOfMine}; ${csrfCookieOfTheirs}`,
      },
      body: new URLSearchParams({ subaction: "sign-out-others", csrf: token }),
    });
    expect((await respond(() => accountAction({ request: forged, params: {}, context: {} }))).status).toBe(403);
  });

  it("use the __Host- prefix for the session and CSRF cookies over HTTPS", async () => {
    const request = await formRequest(
      "/login",
      { email: "customer@example.com", password: PASSWORD },
      { origin: "https://portal.test" },
    );
    const response = await respond(() => loginAction({ request, params: {}, context: {} }));
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/__Host-gk_session=[^,]*Path=\/[^,]*Secure/);
    expect(setCookie).toMatch(/__Host-gk_csrf=[^,]*Path=\/[^,]*Secure/);
    expect(setCookie).not.toMatch(/Domain=/i);
  });
});
