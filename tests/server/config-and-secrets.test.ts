import { describe, expect, it, vi } from "vitest";
import { ConfigError, parseEnv } from "~/server/platform/config/env.server";
import { generateKeyPairSync } from "node:crypto";
import {
  COST,
  OWASP_COST,
  TEST_COST,
  hashPassword,
  hashPasswordSync,
  needsRehash,
  unmatchableHash,
  verifyPassword,
} from "~/server/platform/passwords.server";

/** A seller for a deployment without the demo seed: the address's lines separated by |. */
const SELLER = {
  SELLER_LEGAL_NAME: "GateKeeper Ltd.",
  SELLER_ADDRESS: "1 Quay Street|Dublin 2",
  SELLER_VAT_NUMBER: "IE6388047V",
};

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

  it("requires a session secret and a license signing key for a real deployment without the demo seed", () => {
    const signingKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(() => parseEnv({ SEED_DEMO: "false" })).toThrowError(/^SESSION_SECRET is required unless SEED_DEMO=true/);
    expect(() => parseEnv({ SEED_DEMO: "false", SESSION_SECRET: "x".repeat(32) })).toThrowError(
      new ConfigError(
        "LICENSE_SIGNING_KEY is required unless SEED_DEMO=true (e.g. `openssl genpkey -algorithm ed25519`)",
      ),
    );
    const secrets = { SEED_DEMO: "false", SESSION_SECRET: "x".repeat(32), LICENSE_SIGNING_KEY: signingKey };
    // The embedded billing engine renders invoices, which name the seller.
    expect(() => parseEnv(secrets)).toThrowError(
      new ConfigError(
        "SELLER_LEGAL_NAME is required when the embedded billing engine renders invoices (BILLING_PROVIDER=local) unless SEED_DEMO=true",
      ),
    );
    const real = parseEnv({ ...secrets, ...SELLER });
    expect(real.SEED_DEMO).toBe(false);
    expect(real.SELLER_ADDRESS).toEqual(["1 Quay Street", "Dublin 2"]);
    // A PEM in one line, its line breaks written as \n, as environment files carry it.
    expect(parseEnv({ LICENSE_SIGNING_KEY: signingKey.replace(/\n/g, "\\n") }).LICENSE_SIGNING_KEY).toBe(
      signingKey.trim(),
    );
  });

  it("accepts only an Ed25519 private key for signing licenses", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" });
    for (const wrong of ["not a key", rsa.toString()]) {
      expect(() => parseEnv({ LICENSE_SIGNING_KEY: wrong })).toThrowError(
        /^LICENSE_SIGNING_KEY must be an Ed25519 private key in PEM/,
      );
    }
  });

  it("seeds the public demo accounts under NODE_ENV=production only when SEED_DEMO=true says so", () => {
    const signingKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrowError(
      /^SESSION_SECRET is required unless SEED_DEMO=true/,
    );
    expect(
      parseEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32), LICENSE_SIGNING_KEY: signingKey, ...SELLER })
        .SEED_DEMO,
    ).toBe(false);
    expect(parseEnv({ NODE_ENV: "production", SEED_DEMO: "true" }).SEED_DEMO).toBe(true);
    expect(parseEnv({ NODE_ENV: "development" }).SEED_DEMO).toBe(true);
  });

  it("treats an empty variable as not set", () => {
    expect(parseEnv({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
  });
});

describe("passwords", () => {
  it("verify against their scrypt hash, async or from the seed's sync hash", async () => {
    // OWASP's minimum for scrypt: N=2^17, r=8, p=1.
    const hash = await hashPassword("Correct-horse-1", OWASP_COST);
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword("Correct-horse-1", hash)).toBe(true);
    expect(await verifyPassword("Correct-horse-1", await hashPassword("Correct-horse-1"))).toBe(true);
    expect(await verifyPassword("correct-horse-1", hash)).toBe(false);
    expect(await verifyPassword("GateKeeper-demo-1", hashPasswordSync("GateKeeper-demo-1"))).toBe(true);
  });

  it("never match the hash kept for an unknown account, which costs what a real one costs to check", async () => {
    const unmatchable = unmatchableHash();
    expect(await verifyPassword("not a password", unmatchable)).toBe(false);
    expect(await verifyPassword("", unmatchable)).toBe(false);
    expect(needsRehash(unmatchable)).toBe(false);
    expect(unmatchable.split("$").slice(0, 4)).toEqual(["scrypt", String(COST.N), String(COST.r), String(COST.p)]);
    expect(unmatchableHash()).not.toBe(unmatchable);
  });

  it("never match a malformed hash", async () => {
    expect(await verifyPassword("anything", "plain-text")).toBe(false);
  });

  it("say when a hash was made at a lower cost than today's, so sign-in re-makes it", async () => {
    expect(needsRehash(await hashPassword("Correct-horse-1"))).toBe(false);
    expect(needsRehash(await hashPassword("Correct-horse-1", { ...COST, N: COST.N / 2 }))).toBe(true);
    expect(needsRehash("plain-text")).toBe(true);
  });

  it("are made at OWASP's cost everywhere but in the unit tests", async () => {
    expect(COST).toEqual(TEST_COST);
    vi.stubEnv("NODE_ENV", "production");
    vi.resetModules();
    try {
      const production = await import("~/server/platform/passwords.server");
      expect(production.COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
      expect(production.needsRehash(await hashPassword("Correct-horse-1"))).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
