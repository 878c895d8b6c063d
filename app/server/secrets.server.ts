import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  type KeyObject,
} from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withStartupLock } from "./database/startup-lock.server";
import { databaseFile, env } from "./env.server";

/**
 * A secret a real deployment configures (env.server requires it when SEED_DEMO=false). Demo mode
 * generates it on first start and keeps it beside the database, so a fresh clone needs no setup and what
 * it protects (sessions, license files) still holds after a restart. Generated under the start-up lock, so that
 * processes starting together on one database keep one secret, the first one's, and all sign with it.
 */
function configuredOrGenerated(configured: string | undefined, fileName: string, generate: () => string): string {
  if (configured) return configured;
  const file = path.join(path.dirname(path.resolve(databaseFile())), fileName);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = generate();
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const kept = await withStartupLock({ engine: "sqlite", file: databaseFile() }, async () => ({
  rootSecret: configuredOrGenerated(env.SESSION_SECRET, ".portal-secret", () => randomBytes(32).toString("hex")),
  licenseSigningKey: configuredOrGenerated(env.LICENSE_SIGNING_KEY, ".license-signing-key.pem", () =>
    generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  ),
}));
const rootSecret = kept.rootSecret;

type SecretPurpose = "session" | "csrf" | "wizard-secrets";
const derivedSecrets = new Map<SecretPurpose, string>();

/** A secret for one purpose, derived from the root so that one leaked use does not expose another. */
export function secretFor(purpose: SecretPurpose): string {
  let secret = derivedSecrets.get(purpose);
  if (!secret) {
    secret = createHmac("sha256", rootSecret).update(purpose).digest("hex");
    derivedSecrets.set(purpose, secret);
  }
  return secret;
}

/**
 * The Ed25519 key pair that signs license files (LICENSE_SIGNING_KEY, or `.license-signing-key.pem`
 * beside the database in demo mode). Hubs hold only the public half, served at /license-public-key.pem.
 */
const privateKey: KeyObject = createPrivateKey(kept.licenseSigningKey);

export const licenseSigningKey = { privateKey, publicKey: createPublicKey(privateKey) } as const;
