import { createHash, createPublicKey, randomUUID, sign, verify, type KeyObject } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { PortalExecutor } from "~/server/platform/database/portal-database.server";
import { licenses } from "~/server/platform/database/tables.server";
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

const protectedHeader = base64url(
  JSON.stringify({ alg: "EdDSA", typ: LICENSE_FILE_TYPE, kid: keyIdOf(licenseSigningKey.publicKey) }),
);

/** The public key Hubs verify with, in PEM (SPKI); served at /license-public-key.pem. */
export const licensePublicKeyPem = licenseSigningKey.publicKey.export({ type: "spki", format: "pem" }).toString();

/** The signed file's text: pretty JSON, `protected` first, so files of the current key share a prefix. */
export function signLicenseFile(terms: LicenseTerms): string {
  const payload = base64url(JSON.stringify(licenseTermsSchema.parse(terms)));
  const signature = sign(null, Buffer.from(`${protectedHeader}.${payload}`), licenseSigningKey.privateKey);
  return `${JSON.stringify({ protected: protectedHeader, payload, signature: signature.toString("base64url") }, null, 2)}\n`;
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

/** Verifies with the portal's own public key: what the Hub simulator checks an uploaded license with. */
export const verifyLicenseFile: LicenseVerifier = licenseVerifier(licenseSigningKey.publicKey);

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

type LicenseRow = typeof licenses.$inferSelect;

/** The terms of a license row, signed now. */
export function licenseFileOf(
  row: Pick<
    LicenseRow,
    "externalLicenseId" | "name" | "nodes" | "planType" | "hasCloudSupport" | "validFrom" | "validTo" | "type"
  >,
  issuedAt = new Date(),
): string {
  return signLicenseFile({
    id: row.externalLicenseId,
    organization: row.name,
    users: row.nodes,
    plan: row.planType,
    cloudSupport: row.hasCloudSupport,
    validFrom: row.validFrom.toISOString(),
    validTo: row.validTo.toISOString(),
    type: row.type,
    issuedAt: issuedAt.toISOString(),
  });
}

type NewLicenseRow = typeof licenses.$inferInsert;
type LicenseFacts = Pick<
  LicenseRow,
  "externalLicenseId" | "name" | "nodes" | "planType" | "type" | "hasCloudSupport" | "validFrom" | "validTo"
>;

/**
 * A new license row with its signed file, for the seed and for orders (no database access here, so the
 * seed can use it while the database starts).
 */
export function licenseRow(
  ownerId: string,
  facts: LicenseFacts,
  extra: Pick<NewLicenseRow, "subscriptionId" | "isUsed" | "termsVersion"> = {},
): NewLicenseRow {
  return { id: randomUUID(), ownerId, ...facts, licenseCode: licenseFileOf(facts), ...extra };
}

/**
 * The start-up step that re-issues every license whose file is not signed by the current key in the
 * current format: licenses from before signed files (HMAC codes), and all of them after the key changed.
 * Files of the current key start with the same `protected` header, so finding the others is one scan.
 */
export async function reissueLicenseFiles(db: PortalExecutor, now = new Date()): Promise<number> {
  const prefix = `{\n  "protected": "${protectedHeader}"`;
  return db.transaction(async (tx) => {
    const stale = await tx
      .select()
      .from(licenses)
      .where(sql`substr(${licenses.licenseCode}, 1, ${prefix.length}) <> ${prefix}`);
    for (const row of stale) {
      await tx
        .update(licenses)
        .set({ licenseCode: licenseFileOf(row, now) })
        .where(eq(licenses.id, row.id));
    }
    return stale.length;
  });
}
