import { generateKeyPairSync } from "node:crypto";
import { request as http } from "node:http";
import { connect } from "node:net";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { csrfOf, DEMO, DEMO_PASSWORD, expect, signInAs, startPortal, test } from "./fixtures";

/**
 * The portal's security promises (docs/security.md) at the HTTP level, against the built server (scripts/server.mjs) as an attacker would try it.
 * The HTTP-only tests run once, in the javascript project: no browser is involved in them.
 */

async function client(baseURL: string, headers: Record<string, string> = {}): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: headers, maxRedirects: 0 });
}

/**
 * A request written on the socket as given (`requestLine`, then `headers`: the portal's own Host unless one is
 * given), as no HTTP client would; its status and whole answer.
 */
function rawRequest(
  baseURL: string,
  requestLine: string,
  headers: string[] = [],
): Promise<{ status: number; answer: string }> {
  const { hostname, port } = new URL(baseURL);
  const lines = headers.some((header) => /^host:/i.test(header)) ? headers : [`Host: ${hostname}:${port}`, ...headers];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${requestLine}\r\n${[...lines, "Connection: close"].join("\r\n")}\r\n\r\n`),
    );
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.once("error", reject);
    socket.once("close", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), answer }));
  });
}

const statusOfRawRequest = async (baseURL: string, requestLine: string) =>
  (await rawRequest(baseURL, requestLine)).status;

/** The Cookie header a client's jar would send to the portal. */
async function cookieHeaderOf(api: APIRequestContext): Promise<string> {
  return (await api.storageState()).cookies.map(({ name, value }) => `${name}=${value}`).join("; ");
}

async function signInWith(
  api: APIRequestContext,
  email: string,
  password = DEMO_PASSWORD,
  headers: Record<string, string> = {},
) {
  const csrf = await csrfOf(api, "/login");
  return api.post("/login", { form: { email, password, csrf }, headers });
}

test.describe("the HTTP layer", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP only: once is enough");

  test("every response carries the security headers, and scripts run only with this response's nonce (§6, §8)", async ({
    portal,
  }) => {
    const api = await client(portal.baseURL);
    const page = await api.get("/login");
    const html = await page.text();
    const asset = /src="(\/build\/[^"]+\.js)"/.exec(html)?.[1] ?? /href="(\/build\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset, "a build asset on the login page").toBeTruthy();
    const pages = {
      document: page,
      "resource route": await api.get("/healthz"),
      "not found": await api.get("/no-such-page"),
      // Straight to an instance: see PortalServer.instanceURLs.
      "too large": await api.post(new URL("/login", portal.instanceURLs[0]).href, {
        headers: { "Content-Type": "text/plain" },
        data: "x".repeat(1024 * 1024 + 1),
      }),
    };
    const files = { "static file": await api.get("/favicon.svg"), "build asset": await api.get(asset ?? "") };
    for (const [what, response] of Object.entries({ ...pages, ...files })) {
      const headers = response.headers();
      expect(headers["x-frame-options"], what).toBe("DENY");
      expect(headers["x-content-type-options"], what).toBe("nosniff");
      expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
    }
    for (const [what, response] of Object.entries(pages)) {
      const scriptSrc = /script-src ([^;]+)/.exec(response.headers()["content-security-policy"] ?? "")?.[1] ?? "";
      expect(scriptSrc, what).toMatch(/'nonce-[A-Za-z0-9+/=]{20,}'/);
      expect(scriptSrc, what).not.toContain("unsafe-inline");
    }
    // A file is no page: opened as a document, it runs and loads nothing (decision 132).
    for (const [what, response] of Object.entries(files)) {
      expect(response.headers()["content-security-policy"], what).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox",
      );
    }
    const nonce = /'nonce-([^']+)'/.exec(page.headers()["content-security-policy"])?.[1];
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    const again = await api.get("/login");
    expect(again.headers()["content-security-policy"]).not.toContain(nonce);
    await api.dispose();
  });

  test("build assets go out as the build compressed them, to a browser that takes the encoding (decision 129)", async ({
    portal,
  }) => {
    const html = await (await fetch(new URL("/login", portal.baseURL))).text();
    // The sign-in page's own script (decision 138).
    const script = /src="(\/build\/[^"]+\.js)"/.exec(html)?.[1];
    const stylesheet = /href="(\/build\/[^"]+\.css)"/.exec(html)?.[1];
    for (const asset of [script, stylesheet]) {
      expect(asset, "a script and a stylesheet on the login page").toBeTruthy();
      const url = new URL(asset ?? "", portal.baseURL);
      const plain = await fetch(url, { headers: { "accept-encoding": "identity" } });
      const plainBody = await plain.text();
      expect(plain.headers.get("content-encoding")).toBeNull();
      for (const [accepted, sent] of [
        ["br, gzip", "br"],
        ["gzip", "gzip"],
      ]) {
        // fetch decodes the body, so equal text means the compressed copy is this build's file.
        const compressed = await fetch(url, { headers: { "accept-encoding": accepted } });
        expect(compressed.headers.get("content-encoding"), `${asset} for "${accepted}"`).toBe(sent);
        expect(compressed.headers.get("vary")).toContain("Accept-Encoding");
        expect(compressed.headers.get("cache-control")).toContain("immutable");
        // A file's length, not the compression middleware's chunked stream (which sends no length).
        const length = Number(compressed.headers.get("content-length"));
        expect(length).toBeGreaterThan(0);
        expect(length).toBeLessThan(plainBody.length);
        expect(await compressed.text()).toBe(plainBody);
      }
    }
  });

  test("a body over 1 MB is refused with 413 before it is read, declared or streamed (§5)", async ({ portal }) => {
    // Straight to an instance: see PortalServer.instanceURLs.
    const url = new URL("/login", portal.instanceURLs[0]);
    const send = (headers: Record<string, string | number>, write: (request: ReturnType<typeof http>) => void) =>
      new Promise<number>((resolve, reject) => {
        const request = http(url, { method: "POST", headers }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on("error", reject);
        write(request);
      });
    // 30 MB announced, nothing sent: the answer comes without waiting for the body.
    const declared = await send(
      { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": 30 * 1024 * 1024 },
      (request) => request.flushHeaders(),
    );
    expect(declared).toBe(413);
    const streamed = await send(
      { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
      (request) => {
        for (let chunk = 0; chunk < 3; chunk += 1) request.write(Buffer.alloc(512 * 1024, "a"));
        request.end();
      },
    );
    expect(streamed).toBe(413);
  });

  test("the client address comes from the socket: forged forwarding headers do not dodge the throttle (§2)", async ({
    portal,
  }) => {
    const api = await client(portal.baseURL);
    const statuses = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const forged = { "X-Forwarded-For": `203.0.113.${attempt}`, "X-Client-IP": `198.51.100.${attempt}` };
      statuses.push((await signInWith(api, "forged@example.com", "wrong-password", forged)).status());
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    await api.dispose();
  });

  test("with TRUST_PROXY=1 the address is the one the proxy forwarded (§2)", async ({ databaseEngine }) => {
    const behindProxy = await startPortal({ engine: databaseEngine, env: { TRUST_PROXY: "1" } });
    try {
      const api = await client(behindProxy.baseURL);
      const from = (address: string) => ({ "X-Forwarded-For": `10.9.9.9, ${address}` });
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await signInWith(api, "proxied@example.com", "wrong-password", from("203.0.113.7"))).status()).toBe(
          401,
        );
      }
      expect((await signInWith(api, "proxied@example.com", "wrong-password", from("203.0.113.7"))).status()).toBe(429);
      expect((await signInWith(api, "proxied@example.com", "wrong-password", from("203.0.113.8"))).status()).toBe(401);
      await api.dispose();
      // The proxy appended its own scheme after the client's: the trusted hop's (right-most) is the one believed.
      const appended = await client(behindProxy.baseURL, { "X-Forwarded-Proto": "http, https" });
      const page = await appended.get("/login");
      expect(page.headers()["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      expect(
        page.headersArray().find(({ name, value }) => name === "Set-Cookie" && value.startsWith("__Host-gk_csrf="))
          ?.value,
      ).toMatch(/; Secure/);
      await appended.dispose();
      const forged = await client(behindProxy.baseURL, { "X-Forwarded-Proto": "https, http" });
      expect((await forged.get("/login")).headers()["strict-transport-security"]).toBeUndefined();
      await forged.dispose();
      // A forwarded host that carries a path is refused like such a Host.
      const { status } = await rawRequest(behindProxy.baseURL, "GET /home HTTP/1.1", [
        `Host: ${new URL(behindProxy.baseURL).host}`,
        "X-Forwarded-Host: portal.example/admin/customers?",
      ]);
      expect(status).toBe(400);
      expect(behindProxy.stderr()).toBe("");
    } finally {
      await behindProxy.stop();
    }
  });

  test("production without SEED_DEMO=true seeds nothing, and says so only when it seeds (§4)", async ({
    portal,
    databaseEngine,
  }) => {
    expect(portal.stdout().match(/Demo accounts seeded/g)).toHaveLength(1);
    const signingKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const production = await startPortal({
      engine: databaseEngine,
      env: {
        SEED_DEMO: "",
        SESSION_SECRET: "s".repeat(40),
        LICENSE_SIGNING_KEY: signingKey,
        SELLER_LEGAL_NAME: "GateKeeper Test Ltd.",
        SELLER_ADDRESS: "1 Test Street|Dublin 2|Ireland",
        SELLER_VAT_NUMBER: "IE6388047V",
      },
    });
    try {
      const api = await client(production.baseURL);
      expect((await signInWith(api, DEMO.admin)).status()).toBe(401);
      expect(production.stdout()).not.toContain("Demo accounts seeded");
      await api.dispose();
    } finally {
      await production.stop();
    }
  });

  test("hostile input gets 400 or 404, never a 500 (§7), and signed-in answers are not cacheable (§8)", async ({
    portal,
  }) => {
    const anonymous = await client(portal.baseURL);
    const csrf = await csrfOf(anonymous, "/login");
    expect(
      (await anonymous.post("/login", { data: { email: DEMO.customer, password: DEMO_PASSWORD, csrf } })).status(),
    ).toBe(400);
    const brokenMultipart = await anonymous.post("/login", {
      headers: { "Content-Type": "multipart/form-data; boundary=gk" },
      data: '--gk\r\nContent-Disposition: form-data; name="email"\r\n\r\nno end',
    });
    expect(brokenMultipart.status()).toBe(400);

    const api = await client(portal.baseURL);
    expect((await signInWith(api, DEMO.customer)).status()).toBe(302);
    for (const path of ["/docs/constructor", "/docs/__proto__", "/constructor/hub", "/docs/toString"]) {
      expect((await api.get(path)).status(), path).toBe(404);
    }
    // Signed in, every page renders the session's one token.
    const token = await csrfOf(api, "/account");
    // 422 with the step's message, or the step guard's redirect to the plan step for a visitor who has not chosen one.
    const satellite = await api.post("/store/subscribe/hosting", { form: { hosting: "satellite", csrf: token } });
    expect([302, 422]).toContain(satellite.status());

    // Pages and their data (single fetch's .data requests, decision 064).
    for (const path of ["/account", "/account.data", "/home.data?_routes=root"]) {
      const response = await api.get(path);
      expect(response.status(), path).toBe(200);
      expect(response.headers()["cache-control"], path).toBe("no-store");
    }
    expect((await api.get("/login?redirectTo=%2F%09%2Fevil.example%2F")).headers()["location"]).toBe("/home");
    // A request target that is not a path (a proxy's absolute URL, or `*`), which no browser sends.
    for (const target of ["http://evil.example/login", "*"]) {
      expect(await statusOfRawRequest(portal.baseURL, `GET ${target} HTTP/1.1`), target).toBe(400);
    }
    await Promise.all([anonymous.dispose(), api.dispose()]);
  });
});

test.describe("the request's origin and method", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP only: once is enough");

  test("a Host that is no host name never picks the page: 400, as are the hostile ones, with one access-log line and no stack", async ({
    portal,
  }) => {
    const admin = await client(portal.baseURL);
    expect((await signInWith(admin, DEMO.admin)).status()).toBe(302);
    const cookie = `Cookie: ${await cookieHeaderOf(admin)}`;
    const logBefore = portal.stdout().length;
    for (const [target, host] of [
      ["/home", "x/admin/customers?"],
      ["/healthz", "x/admin/customers#"],
      ["/anything.txt", "x/admin/customers#"],
    ]) {
      const { status, answer } = await rawRequest(portal.baseURL, `GET ${target} HTTP/1.1`, [`Host: ${host}`, cookie]);
      expect(status, host).toBe(400);
      expect(answer).not.toContain("Customers");
    }
    for (const host of ["a b", "[", "x:99999", "%", "a@b", "::1", "x:y:z"]) {
      expect((await rawRequest(portal.baseURL, "GET /login HTTP/1.1", [`Host: ${host}`])).status, host).toBe(400);
    }
    // Two Host headers are refused too (node:http would keep the first).
    const { hostname, port } = new URL(portal.baseURL);
    const twice = await rawRequest(portal.baseURL, "GET /home HTTP/1.1", [
      `Host: ${hostname}:${port}`,
      "Host: x",
      cookie,
    ]);
    expect(twice.status).toBe(400);
    // The same admin, with the portal's own Host, does get the page.
    const own = await rawRequest(portal.baseURL, "GET /admin/customers HTTP/1.1", [cookie]);
    expect(own.status).toBe(200);
    expect(own.answer).toContain("Customers");
    const log = portal
      .stdout()
      .slice(logBefore)
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { event?: string; status?: number });
    expect(log.filter((line) => line.event === "request" && line.status === 400)).toHaveLength(11);
    await admin.dispose();
  });

  test("an unknown method gets 405, and a post to a file or a page that takes none gets 405, without a stack", async ({
    portal,
  }) => {
    const trace = await rawRequest(portal.baseURL, "TRACE /login HTTP/1.1");
    expect(trace.status).toBe(405);
    expect(trace.answer).toMatch(/^Allow: GET, HEAD, POST\r$/im);
    for (const method of ["PUT", "DELETE", "PROPFIND", "OPTIONS"]) {
      expect((await rawRequest(portal.baseURL, `${method} /login HTTP/1.1`)).status, method).toBe(405);
    }
    const api = await client(portal.baseURL);
    for (const path of ["/license-public-key.pem", "/healthz", "/favicon.ico"]) {
      expect((await api.post(path, { form: { a: "b" } })).status(), path).toBe(405);
    }
    // A legacy ?_data= request is answered as before, without Remix's warning and its stack on stderr.
    expect((await api.get("/login?_data=routes/login")).status()).toBe(200);
    await api.dispose();
  });

  test("a 429 carries Retry-After as a document, as single fetch's .data, and as ?_data", async ({ portal }) => {
    const api = await client(portal.baseURL);
    const email = "retry-after@example.com";
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await signInWith(api, email, "wrong-password")).status()).toBe(401);
    }
    const csrf = await csrfOf(api, "/login");
    for (const path of ["/login", "/login.data", "/login?_data=routes%2Flogin"]) {
      const refused = await api.post(path, { form: { email, password: "wrong-password", csrf } });
      expect(refused.status(), path).toBe(429);
      expect(refused.headers()["retry-after"], path).toMatch(/^\d+$/);
    }
    await api.dispose();
  });
});

test.describe("sessions in the browser (§3)", () => {
  test("a cookie copied before sign-out opens nothing afterwards", async ({ page, browser, baseURL }) => {
    await signInAs(page, DEMO.distributor);
    const copied = await page.context().storageState();
    await page.goto("/account");
    await expect(page.getByRole("button", { name: "Sign out everywhere else" })).toBeVisible();
    const csrf = await page.locator('input[name="csrf"]').first().inputValue();
    await page.request.post("/logout", { form: { csrf }, maxRedirects: 0 });
    const thief = await browser.newContext({ storageState: copied, baseURL });
    const stolen = await thief.newPage();
    await stolen.goto("/account");
    await expect(stolen).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
    await thief.close();
  });
});
