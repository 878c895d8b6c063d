import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte, ne } from "drizzle-orm";
import { knownDevices } from "~/server/platform/database/tables.server";
import { afterBoot } from "~/server/platform/after-boot.server";
import { secretFor } from "~/server/platform/secrets.server";
import { portalCookie } from "~/server/platform/cookies.server";
import { db, type PortalExecutor } from "~/server/platform/database/db.server";

/**
 * The known-device cookie (decision 170, after OWASP's "device cookies"): a browser that signed in to an
 * account carries a random token, bound on the server to that account. It names no one (no email, no id), and
 * the table holds only the token's SHA-256. Such a browser is outside the pause of the account's untrusted
 * clients, under a small failure limit of its own (throttle.server). Each sign-in replaces the browser's token;
 * sign-out forgets it; a password change and "Sign out everywhere else" forget the user's other browsers.
 */
const KNOWN_FOR_MS = 365 * 24 * 60 * 60 * 1000;

const deviceCookie = afterBoot(() =>
  portalCookie("gk_device", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: KNOWN_FOR_MS / 1000,
    secrets: [secretFor("session")],
  }),
);

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

async function presentedDeviceId(request: Request): Promise<string | null> {
  const token: unknown = await deviceCookie().parse(request);
  return typeof token === "string" && token ? digest(token) : null;
}

/** The id of the request's browser when it is a known device of this user (else null): its throttle's key. */
export async function knownDeviceOf(request: Request, userId: string | undefined): Promise<string | null> {
  const id = await presentedDeviceId(request);
  if (!id || !userId) return null;
  const [row] = await db
    .select({ id: knownDevices.id })
    .from(knownDevices)
    .where(and(eq(knownDevices.id, id), eq(knownDevices.userId, userId), gt(knownDevices.expiresAt, new Date())));
  return row?.id ?? null;
}

/**
 * Makes the request's browser a known device of the user (at sign-in): a new token replaces whatever device
 * token the browser held, for this account or another. Returns the Set-Cookie header.
 */
export async function rememberDevice(request: Request, userId: string): Promise<string> {
  const presented = await presentedDeviceId(request);
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  // Deletes and an insert of a new random id, nothing read first: two sign-ins at once each keep their own row.
  await db.transaction(async (tx) => {
    if (presented) await tx.delete(knownDevices).where(eq(knownDevices.id, presented));
    // The user's browsers unseen for longer than a cookie lives are gone: their rows go too.
    await tx
      .delete(knownDevices)
      .where(and(eq(knownDevices.userId, userId), lte(knownDevices.expiresAt, new Date(now))));
    await tx
      .insert(knownDevices)
      .values({ id: digest(token), userId, createdAt: new Date(now), expiresAt: new Date(now + KNOWN_FOR_MS) });
  });
  return deviceCookie().serialize(request, token);
}

/** Forgets the request's browser (at sign-out); returns the Set-Cookie header that clears the cookie. */
export async function forgetDevice(request: Request): Promise<string> {
  const presented = await presentedDeviceId(request);
  if (presented) await db.delete(knownDevices).where(eq(knownDevices.id, presented));
  return deviceCookie().serialize(request, "", { maxAge: undefined, expires: new Date(0) });
}

/** The id of the request's browser as a known device, or "" (for forgetOtherDevices). */
export const presentedDevice = async (request: Request) => (await presentedDeviceId(request)) ?? "";

/**
 * Forgets every known browser of the user but `keptDevice` (the request's own, presentedDevice): a password
 * change, "Sign out everywhere else"; in `store`'s transaction.
 */
export async function forgetOtherDevices(userId: string, keptDevice: string, store: PortalExecutor): Promise<void> {
  await store.delete(knownDevices).where(and(eq(knownDevices.userId, userId), ne(knownDevices.id, keptDevice)));
}
