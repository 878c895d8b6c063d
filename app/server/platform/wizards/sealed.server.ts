import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { secretFor } from "~/server/platform/secrets.server";

/**
 * A secret typed into a wizard (the Hub administrator's password) is never stored in plaintext: the draft
 * and the job keep it sealed with AES-256-GCM under a key derived from the root secret, and the job deletes
 * it once used (decision 043). Sealed text is `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
const key = () =>
  Buffer.from(hkdfSync("sha256", secretFor("wizard-secrets"), Buffer.alloc(0), "gatekeeper wizard secrets v1", 32));

export function sealSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The plaintext, or null when the text was not sealed here (another root secret, or altered). */
export function openSecret(sealed: string): string | null {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
