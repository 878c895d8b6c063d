import { createHash, createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import type { BrowserContext } from "@playwright/test";
import { eq } from "drizzle-orm";
import { CSRF } from "remix-utils/csrf/server";
import { databaseChoice } from "~/server/platform/config/database-url.server";
import { withDatabase } from "~/server/platform/database/portal-database.server";

/**
 * A session started the way the sign-in form's success starts one (a sessions row with its own CSRF token, the
 * signed cookie that names it), written by the test into the portal's database: for a walk about something after
 * signing in. A sign-in through the form verifies the password at OWASP's scrypt cost (most of a second of CPU under
 * load) and renders two pages, some hundreds of times a run; the sign-in walks themselves go through the form.
 */

/** A secret for one purpose, derived from the root as the portal derives it (secretFor). */
const derived = (root: string, purpose: "session" | "csrf") => createHmac("sha256", root).update(purpose).digest("hex");

/**
 * Starts a session for `email` in this browser context, on the portal whose database is `databaseUrl` and whose
 * address is `baseURL`: the context then holds the session cookie a sign-in sets (the CSRF cookie follows on the
 * first page).
 */
export async function startSessionIn(context: BrowserContext, baseURL: string, databaseUrl: string, email: string) {
  const token = randomBytes(32).toString("base64url");
  const choice = databaseChoice(databaseUrl);
  const root = await withDatabase(databaseUrl, async (db, t) => {
    // The demo mode's root secret, where the portal keeps it (secrets.server): beside the SQLite file, or in the
    // PostgreSQL database.
    const secret =
      choice?.engine === "sqlite"
        ? readFileSync(path.join(path.dirname(choice.file), ".portal-secret"), "utf8").trim()
        : (
            await db
              .select({ value: t.portalSecrets.value })
              .from(t.portalSecrets)
              .where(eq(t.portalSecrets.name, "session-secret"))
          )[0].value;
    const [user] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.email, email));
    if (!user) throw new Error(`no account for ${email}`);
    const now = Date.now();
    await db.insert(t.sessions).values({
      id: createHash("sha256").update(token).digest("hex"),
      userId: user.id,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      // Any walk ends long before: the portal's own limit is a week from sign-in.
      expiresAt: new Date(now + 24 * 60 * 60 * 1000),
      userAgent: "Playwright",
      csrfToken: new CSRF({ cookie: createCookie("unused"), secret: derived(secret, "csrf") }).generate(),
    });
    return secret;
  });
  // The portal's cookie over plain HTTP (cookies.server: `__Host-` only over HTTPS), signed as Remix signs it.
  const cookie = createCookie("__gk_session", { secrets: [derived(root, "session")] });
  const value = /^__gk_session=([^;]*)/.exec(await cookie.serialize(token))![1];
  await context.addCookies([{ name: "__gk_session", value, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
}
