import { randomBytes, scrypt as scryptCallback, scryptSync, timingSafeEqual, type ScryptOptions } from "node:crypto";

type Cost = { N: number; r: number; p: number };

/**
 * Password hashing with Node's built-in scrypt (memory-hard, no native add-on to build), at OWASP's current
 * minimum (Password Storage Cheat Sheet: N=2^17, r=8, p=1; 128 MiB and a few hundred ms per hash). Stored as
 * `scrypt$N$r$p$salt$hash`, so a hash made at an older cost still verifies, and is re-made at today's cost on
 * the next successful sign-in (needsRehash). No stored hash above this cost is ever computed.
 */
export const OWASP_COST: Cost = { N: 2 ** 17, r: 8, p: 1 };

/**
 * The unit tests' cost (NODE_ENV=test, which no deployment runs), as Devise lowers its stretches in tests: they
 * sign in and sign up some hundreds of times, and at OWASP's cost those hashes were most of their time. Every
 * deployment, the Docker image and the end-to-end portals (NODE_ENV=production) hash at OWASP's cost.
 */
export const TEST_COST: Cost = { N: 2 ** 12, r: 8, p: 1 };

/** Today's cost: what a new hash is made at. */
export const COST: Cost = process.env.NODE_ENV === "test" ? TEST_COST : OWASP_COST;
const KEY_LENGTH = 64;
/** Node's default scrypt memory cap (32 MiB) is below what N=2^17, r=8 needs (128 MiB). */
const MAX_MEMORY = 256 * 1024 * 1024;

function encode(cost: Cost, salt: Buffer, key: Buffer): string {
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize("NFKC"), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, cost: Cost = COST): Promise<string> {
  const salt = randomBytes(16);
  return encode(cost, salt, await scrypt(password, salt, cost));
}

/** For start-up work (the demo seed, once per seed) that runs before any request is served. */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(16);
  return encode(COST, salt, scryptSync(password.normalize("NFKC"), salt, KEY_LENGTH, { ...COST, maxmem: MAX_MEMORY }));
}

/**
 * A stored hash at today's cost that no password matches (a random key, not a password's): checking a password against
 * it costs exactly what checking a real account's costs, without hashing anything to make it.
 */
export function unmatchableHash(): string {
  return encode(COST, randomBytes(16), randomBytes(KEY_LENGTH));
}

function parse(stored: string) {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  // A cost above OWASP's is refused unread: a stored hash could otherwise make one sign-in take a worker's memory.
  const sane =
    Number.isInteger(cost.N) && Number.isInteger(cost.r) && Number.isInteger(cost.p) && cost.N <= OWASP_COST.N;
  return scheme === "scrypt" && salt && hash && sane ? { cost, salt, hash } : null;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const expected = Buffer.from(parsed.hash, "base64url");
  const actual = await scrypt(password, Buffer.from(parsed.salt, "base64url"), parsed.cost);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** True when the stored hash was made at a lower cost than today's (or in an unknown format). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.cost.N < COST.N || parsed.cost.r < COST.r || parsed.cost.p < COST.p;
}
