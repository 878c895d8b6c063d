import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { databaseFile, env } from "./env.server";

/**
 * The portal's root secret. A real deployment sets SESSION_SECRET (env.server requires it when
 * SEED_DEMO=false). Demo mode generates one on first start and keeps it beside the database, so a
 * fresh clone needs no setup and sessions still survive a restart.
 */
function loadRootSecret(): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  const file = path.join(path.dirname(path.resolve(databaseFile())), ".portal-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const rootSecret = loadRootSecret();

/** A secret for one purpose, derived from the root so that one leaked use does not expose another. */
export function secretFor(purpose: "session" | "csrf" | "license-signing" | "wizard-secrets"): string {
  return createHmac("sha256", rootSecret).update(purpose).digest("hex");
}
