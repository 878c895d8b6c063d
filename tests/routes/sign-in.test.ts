import type { LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { action as loginAction, loader as loginLoader } from "~/routes/login";
import { action as logoutAction } from "~/routes/logout";
import { loader as portalLoader } from "~/routes/_portal";
import { loader as adminLoader } from "~/routes/_portal.admin.customers";
import { loader as contentLoader } from "~/routes/_portal.$section.$page";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

const PASSWORD = "GateKeeper-demo-1";

async function signedInCookie(email: string): Promise<string> {
  const response = await respond(async () =>
    loginAction({ request: await formRequest("/login", { email, password: PASSWORD }), params: {}, context: {} }),
  );
  expect(response.status).toBe(302);
  return cookieFrom(response.headers.get("Set-Cookie"));
}

const call = (
  loader: (args: LoaderFunctionArgs) => Promise<unknown>,
  path: string,
  cookie = "",
  params: Record<string, string> = {},
) => respond(async () => loader({ request: getRequest(path, cookie), params, context: {} }));

describe("signing in", () => {
  it("starts an httpOnly, SameSite=Lax session and goes where the user was going", async () => {
    const request = await formRequest("/login", {
      email: "Customer@Example.com",
      password: PASSWORD,
      redirectTo: "/hubs?new=true",
    });
    const response = await respond(async () => loginAction({ request, params: {}, context: {} }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/hubs?new=true");
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/__gk_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
  });

  it("marks the session cookie Secure when the portal is reached over HTTPS", async () => {
    // scripts/server.mjs makes the URL https: from the socket, or from X-Forwarded-Proto through TRUST_PROXY hops.
    const request = await formRequest(
      "/login",
      { email: "customer@example.com", password: PASSWORD },
      { origin: "https://portal.test" },
    );
    const response = await respond(async () => loginAction({ request, params: {}, context: {} }));
    expect(response.headers.get("Set-Cookie")).toMatch(/__Host-gk_session=[^;]+;.*Secure/i);
  });

  it("never redirects to another site after sign-in", async () => {
    const request = await formRequest("/login", {
      email: "customer@example.com",
      password: PASSWORD,
      redirectTo: "//evil.example/steal",
    });
    const response = await respond(async () => loginAction({ request, params: {}, context: {} }));
    expect(response.headers.get("Location")).toBe("/home");
  });

  it("answers an empty or malformed form with a message per field, keeping the email and never the password", async () => {
    for (const [form, fieldErrors] of [
      [
        { email: "", password: "" },
        { email: "Enter your email address.", password: "Enter your password." },
      ],
      [{ email: "not-an-email", password: PASSWORD }, { email: "Enter a valid email address." }],
    ] as const) {
      const response = await respond(async () =>
        loginAction({ request: await formRequest("/login", form), params: {}, context: {} }),
      );
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ fieldErrors, email: form.email });
    }
  });

  it("refuses wrong credentials with one message that does not say which part was wrong", async () => {
    for (const [email, password] of [
      ["customer@example.com", "wrong-password"],
      ["nobody@example.com", PASSWORD],
    ]) {
      const response = await respond(async () =>
        loginAction({ request: await formRequest("/login", { email, password }), params: {}, context: {} }),
      );
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ formError: "The email or password is incorrect.", email });
    }
  });

  it("stops trying after repeated failures for the same account", async () => {
    const attempt = async (password: string) =>
      respond(async () =>
        loginAction({
          request: await formRequest("/login", { email: "mallory@example.com", password }),
          params: {},
          context: {},
        }),
      );
    for (let failures = 0; failures < 5; failures += 1) expect((await attempt("wrong")).status).toBe(401);
    const blocked = await attempt(PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await blocked.json()).formError).toMatch(
      /^Too many failed sign-in attempts\. Please wait 15 minutes and try again\.$/,
    );
  });

  it("rejects a form posted without the portal's CSRF token", async () => {
    const request = await formRequest(
      "/login",
      { email: "customer@example.com", password: PASSWORD },
      { withCsrf: false },
    );
    const response = await respond(async () => loginAction({ request, params: {}, context: {} }));
    expect(response.status).toBe(403);
  });

  it("sends a signed-in visitor of the login page on to the portal", async () => {
    const cookie = await signedInCookie("customer@example.com");
    const response = await respond(async () =>
      loginLoader({ request: getRequest("/login?redirectTo=%2Fstore", cookie), params: {}, context: {} }),
    );
    expect(response.headers.get("Location")).toBe("/store");
  });

  it("signs out and forgets the session", async () => {
    const cookie = await signedInCookie("customer@example.com");
    const response = await respond(async () =>
      logoutAction({ request: await formRequest("/logout", {}, { cookie }), params: {}, context: {} }),
    );
    expect(response.headers.get("Location")).toBe("/login");
    expect(response.headers.get("Set-Cookie")).toMatch(/__gk_session=;.*Expires=Thu, 01 Jan 1970/i);
  });
});

describe("portal pages", () => {
  it("send a visitor who is not signed in to /login, keeping path and query, with source=hubs from the Hubs page", async () => {
    const fromHubs = await call(portalLoader, "/hubs?new=true");
    expect(fromHubs.status).toBe(302);
    expect(fromHubs.headers.get("Location")).toBe("/login?redirectTo=%2Fhubs%3Fnew%3Dtrue&source=hubs");
    const fromLicenses = await call(portalLoader, "/licenses");
    expect(fromLicenses.headers.get("Location")).toBe("/login?redirectTo=%2Flicenses");
  });

  it("show the trial button to a customer without trials and to a distributor", async () => {
    for (const email of ["customer@example.com", "distributor@example.com"]) {
      const response = await call(portalLoader, "/home", await signedInCookie(email));
      expect((await response.json()).user.canStartTrial).toBe(true);
    }
  });

  it("keep the admin portal for administrators", async () => {
    const forCustomer = await call(adminLoader, "/admin/customers", await signedInCookie("customer@example.com"));
    expect(forCustomer.status).toBe(403);
    const forAdmin = await call(adminLoader, "/admin/customers", await signedInCookie("admin@example.com"));
    const { organizations } = await forAdmin.json();
    expect(
      organizations.map((organization: { name: string; members: number; licenses: number }) => [
        organization.name,
        organization.members,
        organization.licenses,
      ]),
    ).toEqual([
      // The distributor's end customers are listed on its own page (and found by a search), not here.
      ["GateKeeper", 1, 0],
      ["Northwind Clinics", 2, 4],
      ["SecureLine Resellers", 1, 3],
    ]);
  });

  it("answer 403 for distributor documents to customers and 404 for pages that do not exist", async () => {
    const customer = await signedInCookie("customer@example.com");
    const distributor = await signedInCookie("distributor@example.com");
    const page = (cookie: string, section: string, name: string) =>
      call(contentLoader, `/${section}/${name}`, cookie, { section, page: name });
    expect((await page(customer, "docs", "deal-registration")).status).toBe(403);
    expect((await page(distributor, "docs", "deal-registration")).status).toBe(200);
    expect((await page(customer, "docs", "manuals")).status).toBe(200);
    expect((await page(customer, "software", "no-such-thing")).status).toBe(404);
    expect((await page(customer, "nowhere", "hub")).status).toBe(404);
  });
});
