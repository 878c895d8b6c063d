import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "~/server/env.server";
import { readLicenseCode, signLicenseCode } from "~/server/license-codes.server";
import { hashPassword, hashPasswordSync, verifyPassword } from "~/server/passwords.server";

describe("configuration", () => {
  it("runs on the embedded defaults with nothing set", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe("file:./data/portal.sqlite");
    expect(env.SEED_DEMO).toBe(true);
  });

  it("names the variable that is wrong, in one line", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrowError(new ConfigError("PORT must be a port number"));
    expect(() => parseEnv({ SEED_DEMO: "maybe" })).toThrowError(new ConfigError("SEED_DEMO must be true or false"));
    expect(() => parseEnv({ SESSION_SECRET: "short" })).toThrowError(/^SESSION_SECRET must be at least 32 characters/);
  });

  it("requires a session secret for a real deployment without the demo seed", () => {
    expect(() => parseEnv({ SEED_DEMO: "false" })).toThrowError(/^SESSION_SECRET is required when SEED_DEMO=false/);
    expect(parseEnv({ SEED_DEMO: "false", SESSION_SECRET: "x".repeat(32) }).SEED_DEMO).toBe(false);
  });

  it("treats an empty variable as not set", () => {
    expect(parseEnv({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
  });
});

describe("passwords", () => {
  it("verify against their scrypt hash, async or from the seed's sync hash", async () => {
    const hash = await hashPassword("Correct-horse-1");
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword("Correct-horse-1", hash)).toBe(true);
    expect(await verifyPassword("correct-horse-1", hash)).toBe(false);
    expect(await verifyPassword("GateKeeper-demo-1", hashPasswordSync("GateKeeper-demo-1"))).toBe(true);
  });

  it("never match a malformed hash", async () => {
    expect(await verifyPassword("anything", "plain-text")).toBe(false);
  });
});

describe("license codes", () => {
  const terms = {
    externalLicenseId: "GK-TEST-1",
    name: "Acme",
    nodes: 10,
    planType: "core",
    type: "recurring",
    hasCloudSupport: false,
    validFrom: "2026-01-01T00:00:00.000Z",
    validTo: "2027-01-01T00:00:00.000Z",
  };

  it("read back the terms they were signed with", () => {
    expect(readLicenseCode(signLicenseCode(terms))).toEqual(terms);
  });

  it("are rejected when their terms were edited", () => {
    const [version, signature] = signLicenseCode(terms).split(".");
    const forged = Buffer.from(JSON.stringify({ ...terms, nodes: 1000 })).toString("base64url");
    expect(readLicenseCode(`${version}.${signature}.${forged}`)).toBeNull();
  });

  it("differ in the first 15 characters that tables show", () => {
    const other = signLicenseCode({ ...terms, externalLicenseId: "GK-TEST-2" });
    expect(signLicenseCode(terms).slice(0, 15)).not.toBe(other.slice(0, 15));
  });
});
