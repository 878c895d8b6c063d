import { createHmac, randomUUID } from "node:crypto";
import type { licenses } from "~db/schema";
import { secretFor } from "./secrets.server";

/** What a Hub reads from a license file. */
export interface LicenseTerms {
  externalLicenseId: string;
  name: string;
  nodes: number;
  planType: string;
  type: string;
  hasCloudSupport: boolean;
  validFrom: string;
  validTo: string;
}

/**
 * A license code is `GK1.<signature>.<terms>`: the terms in base64url JSON, signed with HMAC-SHA256
 * so that a Hub (holding the same key) can tell a genuine license from an edited one. The signature
 * comes first because tables show only a code's first 15 characters, and the terms' JSON starts alike.
 */
export function signLicenseCode(terms: LicenseTerms): string {
  const body = Buffer.from(JSON.stringify(terms)).toString("base64url");
  return `GK1.${signature(body)}.${body}`;
}

export function readLicenseCode(code: string): LicenseTerms | null {
  const [version, mac, body] = code.split(".");
  if (version !== "GK1" || !body || mac !== signature(body)) return null;
  return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as LicenseTerms;
}

function signature(body: string): string {
  return createHmac("sha256", secretFor("license-signing")).update(body).digest("base64url");
}

type LicenseRow = typeof licenses.$inferInsert;

/**
 * A new license row with its signed code, for the seed and for orders (no database access here, so the
 * seed can use it while the database starts).
 */
export function licenseRow(
  ownerId: string,
  terms: Omit<LicenseTerms, "validFrom" | "validTo" | "type" | "planType"> & {
    planType: LicenseRow["planType"];
    type: LicenseRow["type"];
    validFrom: Date;
    validTo: Date;
  },
  extra: Pick<LicenseRow, "subscriptionId" | "isUsed"> = {},
): LicenseRow {
  return {
    id: randomUUID(),
    ownerId,
    ...terms,
    licenseCode: signLicenseCode({ ...terms, validFrom: terms.validFrom.toISOString(), validTo: terms.validTo.toISOString() }),
    ...extra,
  };
}
