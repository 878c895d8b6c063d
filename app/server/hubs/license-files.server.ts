import { createHash, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { z } from "zod";
import { afterBoot } from "~/server/platform/after-boot.server";
import { licenseSigningKey } from "~/server/platform/secrets.server";

/**
 * License files a Hub checks offline (docs/license-files.md). A file is a JWS in its flattened JSON
 * form (RFC 7515 §7.2.2) signed with Ed25519 (RFC 8037, "EdDSA"): the terms travel as base64url JSON in
 * `payload`, and `signature` signs `protected + "." + payload`. A Hub needs only the public key, so
 * no secret of the portal ever leaves it; any JOSE library, or a few lines of crypto, can verify one.
 */

const licenseTermsSchema = z
  .object({
    /** The external license id customers and Hubs know the license by. */
    id: z.string().min(1),
    organization: z.string(),
    users: z.number().int().min(0),
    plan: z.enum(["core", "advanced", "ultimate"]),
    cloudSupport: z.boolean(),
    validFrom: z.string().datetime(),
    validTo: z.string().datetime(),
    type: z.enum(["recurring", "trial"]),
    /** When this file was signed; a re-issued license has a newer one. */
    issuedAt: z.string().datetime(),
  })
  .strict();

/** What a license file says, in the words a Hub reads. */
export type LicenseTerms = z.infer<typeof licenseTermsSchema>;

const fileSchema = z.object({ protected: z.string(), payload: z.string(), signature: z.string() }).strict();
/** The JWS `typ` of a license file. */
const LICENSE_FILE_TYPE = "gatekeeper-license+json";
const headerSchema = z.object({ alg: z.literal("EdDSA"), typ: z.literal(LICENSE_FILE_TYPE), kid: z.string() }).strict();

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** The key's id: the start of the SHA-256 of its SubjectPublicKeyInfo, so a Hub can tell keys apart. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash("sha256")
    .update(publicKey.export({ type: "spki", format: "der" }))
    .digest("base64url")
    .slice(0, 16);
}

const protectedHeader = afterBoot(() =>
  base64url(JSON.stringify({ alg: "EdDSA", typ: LICENSE_FILE_TYPE, kid: keyIdOf(licenseSigningKey().publicKey) })),
);

/** The public key Hubs verify with, in PEM (SPKI); served at /license-public-key.pem. */
export const licensePublicKeyPem = afterBoot(() =>
  licenseSigningKey().publicKey.export({ type: "spki", format: "pem" }).toString(),
);

/** How every file signed by the current key in the current format begins: files that do not need re-issuing. */
export const currentFilePrefix = () => `{\n  "protected": "${protectedHeader()}"`;

/** The signed file's text: pretty JSON, `protected` first, so files of the current key share a prefix. */
export function signLicenseFile(terms: LicenseTerms): string {
  const payload = base64url(JSON.stringify(licenseTermsSchema.parse(terms)));
  const signature = sign(null, Buffer.from(`${protectedHeader()}.${payload}`), licenseSigningKey().privateKey);
  return `${JSON.stringify({ protected: protectedHeader(), payload, signature: signature.toString("base64url") }, null, 2)}\n`;
}

/** Reads a license file: its terms when the signature holds for this public key, else null. */
export type LicenseVerifier = (file: string) => LicenseTerms | null;

/** A verifier for files signed by the holder of `publicKey` (a KeyObject or PEM), as a Hub runs it. */
export function licenseVerifier(publicKey: KeyObject | string): LicenseVerifier {
  const key = typeof publicKey === "string" ? createPublicKey(publicKey) : publicKey;
  return (text) => {
    const file = fileSchema.safeParse(parseJson(text));
    if (!file.success) return null;
    const header = headerSchema.safeParse(parseJson(Buffer.from(file.data.protected, "base64url").toString("utf8")));
    if (!header.success) return null;
    const signed = Buffer.from(`${file.data.protected}.${file.data.payload}`);
    if (!verify(null, signed, key, Buffer.from(file.data.signature, "base64url"))) return null;
    const terms = licenseTermsSchema.safeParse(parseJson(Buffer.from(file.data.payload, "base64url").toString("utf8")));
    return terms.success ? terms.data : null;
  };
}

const portalVerifier = afterBoot(() => licenseVerifier(licenseSigningKey().publicKey));

/** Verifies with the portal's own public key: what the Hub simulator checks an uploaded license with. */
export const verifyLicenseFile: LicenseVerifier = (file) => portalVerifier()(file);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The license key tables show: the file's signature, unique to each license (tables show its start). */
export function licenseKeyOf(file: string): string {
  const parsed = fileSchema.safeParse(parseJson(file));
  return parsed.success ? parsed.data.signature : "";
}
