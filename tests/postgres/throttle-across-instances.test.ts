import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type PortalConnection } from "~/server/platform/database/portal-database.server";
import { postgresTestDatabase } from "../support/postgres";

/**
 * A throttle on PostgreSQL counts in one place for every instance: two portal instances, each with its own pool
 * and its own limiter made as app/server/platform/database/dialect.server's `rateLimiter` makes it (rate-limiter-flexible's
 * Postgres store on the pool, the portal's rate_limits table), share one allowance. What one instance spent, the
 * other refuses; what one gives back, the other lets through.
 */
const database = postgresTestDatabase();
const POINTS = 5;
const WINDOW_SECONDS = 15 * 60;

type Pooled = Extract<PortalConnection, { engine: "postgres" }>;
const instances: Pooled[] = [];

/** One instance's limiter, on its own pool, with the options of the portal's throttles. */
function limiterOf(instance: Pooled, keyPrefix: string) {
  return new RateLimiterPostgres({
    storeClient: instance.pool,
    storeType: "pool",
    tableName: "rate_limits",
    tableCreated: true,
    // The portal's limiters clear expired rows on a timer; two test limiters need not.
    clearExpiredByTimeout: false,
    keyPrefix,
    points: POINTS,
    duration: WINDOW_SECONDS,
  });
}

/** 0 when the point was taken, else the seconds to wait (as throttle.server's `take` answers). */
async function take(limiter: RateLimiterPostgres, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    throw refusal;
  }
}

beforeAll(() => {
  for (let n = 0; n < 2; n += 1) {
    const instance = openDatabase(database.url, { poolMax: 2 });
    if (instance.engine !== "postgres") throw new Error("Not a PostgreSQL database.");
    instances.push(instance);
  }
});

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
});

describe("a throttle on PostgreSQL, across two instances", () => {
  it("reached through instance A holds on instance B, and what A gives back B lets through", async () => {
    const [a, b] = instances.map((instance) => limiterOf(instance, "login-account-address"));
    const key = "victim@example.com|203.0.113.7";
    for (let attempt = 0; attempt < POINTS; attempt += 1) expect(await take(a, key)).toBe(0);
    const waitOnB = await take(b, key);
    expect(waitOnB).toBeGreaterThan(WINDOW_SECONDS - 60);
    expect(waitOnB).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(await take(a, key)).toBeGreaterThan(0);
    // Another key is another allowance, on either instance.
    expect(await take(b, "someone-else@example.com|203.0.113.7")).toBe(0);
    // A success on A forgets the key (throttle.server's `succeeded`): B lets the next attempt through.
    await a.delete(key);
    expect(await take(b, key)).toBe(0);
  });

  it("lets exactly the allowance through when both instances take points at once", async () => {
    const [a, b] = instances.map((instance) => limiterOf(instance, "login-untrusted"));
    const key = "burst@example.com";
    const waits = await Promise.all(Array.from({ length: 16 }, (_, n) => take(n % 2 === 0 ? a : b, key)));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(POINTS);
    expect(waits.filter((wait) => wait > 0)).toHaveLength(16 - POINTS);
    expect((await b.get(key))?.consumedPoints).toBe(16);
    expect((await a.get(key))?.consumedPoints).toBe(16);
  });
});
