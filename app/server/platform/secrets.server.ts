import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  type KeyObject,
} from "node:crypto";
import { keptSecret } from "~/server/platform/database/dialect.server";
import { env } from "./config/env.server";

interface Secrets {
  rootSecret: string;
  licenseSigningKey: { privateKey: KeyObject; publicKey: KeyObject };
}

const globalForSecrets = globalThis as unknown as { __portalSecrets?: Secrets };

/**
 * The start-up's step that takes the secrets a real deployment configures (env.server requires them when
 * SEED_DEMO=false). Demo mode generates them on first start and keeps them (keptSecret: in the database on
 * PostgreSQL, beside the SQLite file otherwise), so a fresh clone needs no setup, what they protect (sessions,
 * license files) still holds after a restart, and every process and instance signs with the same ones.
 */
export async function loadSecrets(): Promise<void> {
  if (globalForSecrets.__portalSecrets) return;
  const rootSecret =
    env.SESSION_SECRET ??
    (await keptSecret({ name: "session-secret", file: ".portal-secret" }, () => randomBytes(32).toString("hex")));
  const signingKey =
    env.LICENSE_SIGNING_KEY ??
    (await keptSecret({ name: "license-signing-key", file: ".license-signing-key.pem" }, () =>
      generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    ));
  const privateKey = createPrivateKey(signingKey);
  globalForSecrets.__portalSecrets = {
    rootSecret,
    licenseSigningKey: { privateKey, publicKey: createPublicKey(privateKey) },
  };
}

function secrets(): Secrets {
  const loaded = globalForSecrets.__portalSecrets;
  if (!loaded) throw new Error("A secret was read before the start-up loaded them (boot.server).");
  return loaded;
}

type SecretPurpose = "session" | "csrf" | "wizard-secrets";
const derivedSecrets = new Map<SecretPurpose, string>();

/** A secret for one purpose, derived from the root so that one leaked use does not expose another. */
export function secretFor(purpose: SecretPurpose): string {
  let secret = derivedSecrets.get(purpose);
  if (!secret) {
    secret = createHmac("sha256", secrets().rootSecret).update(purpose).digest("hex");
    derivedSecrets.set(purpose, secret);
  }
  return secret;
}

/**
 * The Ed25519 key pair that signs license files (LICENSE_SIGNING_KEY, or `.license-signing-key.pem`
 * beside the database in demo mode). Hubs hold only the public half, served at /license-public-key.pem.
 */
export const licenseSigningKey = () => secrets().licenseSigningKey;
