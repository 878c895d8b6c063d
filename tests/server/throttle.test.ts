import { describe, expect, it } from "vitest";
import { sqlite } from "~/server/db.server";
import {
  accountDelaySeconds,
  holdCardSlot,
  releaseCardSlot,
  reservePasswordChange,
  reserveSignInAttempt,
  takeCouponApply,
} from "~/server/throttle.server";

const at = (clientAddress: string) => ({ clientAddress });

describe("the sign-in throttle", () => {
  it("counts parallel guesses as they come: a burst gets exactly the allowed number through", async () => {
    const attempts = await Promise.all(
      Array.from({ length: 12 }, () =>
        reserveSignInAttempt(at("192.0.2.1"), "burst@example.com", { knownDevice: false }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.waitSeconds === 0)).toHaveLength(5);
    expect(attempts.filter((attempt) => attempt.waitSeconds > 0)).toHaveLength(7);
  });

  it("gives the reserved point back on success, so the owner's typos never add up", async () => {
    for (let round = 0; round < 8; round += 1) {
      const attempt = await reserveSignInAttempt(at("192.0.2.2"), "owner@example.com", { knownDevice: false });
      expect(attempt.waitSeconds).toBe(0);
      await attempt.succeeded();
    }
  });

  it("keys on the address it is given, and keeps every address to its own budget", async () => {
    for (let failure = 0; failure < 5; failure += 1) {
      const attempt = await reserveSignInAttempt(at("192.0.2.3"), "victim@example.com", { knownDevice: false });
      expect(attempt.waitSeconds).toBe(0);
      await attempt.failed();
    }
    const blocked = await reserveSignInAttempt(at("192.0.2.3"), "victim@example.com", { knownDevice: false });
    expect(blocked.waitSeconds).toBeGreaterThan(14 * 60);
  });

  it("slows a stranger spreading guesses over addresses with a growing delay, but not the owner's browser", async () => {
    expect([5, 6, 7, 8, 20].map(accountDelaySeconds)).toEqual([0, 2, 4, 8, 900]);
    for (let failure = 0; failure < 6; failure += 1) {
      const attempt = await reserveSignInAttempt(at(`198.51.100.${failure}`), "spread@example.com", {
        knownDevice: false,
      });
      expect(attempt.waitSeconds).toBe(0);
      await attempt.failed();
    }
    const stranger = await reserveSignInAttempt(at("198.51.100.99"), "spread@example.com", { knownDevice: false });
    expect(stranger.waitSeconds).toBeGreaterThan(0);
    const owner = await reserveSignInAttempt(at("203.0.113.5"), "spread@example.com", { knownDevice: true });
    expect(owner.waitSeconds).toBe(0);
  });

  it("keeps its counters in the database, where a restarted or second process finds them", async () => {
    await reserveSignInAttempt(at("192.0.2.9"), "stored@example.com", { knownDevice: false });
    const rows = sqlite.prepare("select key, points from rate_limits where key like '%stored@example.com%'").all();
    expect(rows).toEqual([{ key: "login-account-address:stored@example.com|192.0.2.9", points: 1 }]);
  });
});

describe("other throttles", () => {
  it("allow five password-change attempts per user in fifteen minutes", async () => {
    const waits = [];
    for (let attempt = 0; attempt < 6; attempt += 1) waits.push(await reservePasswordChange("user-password"));
    expect(waits.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(waits[5]).toBeGreaterThan(0);
  });

  it("allow ten coupon Applies per user in ten minutes", async () => {
    const waits = [];
    for (let attempt = 0; attempt < 11; attempt += 1) waits.push(await takeCouponApply("user-coupon"));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(10);
    expect(waits[10]).toBeGreaterThan(0);
  });

  it("hand the one-card slot to one request at a time", async () => {
    const holds = await Promise.all([holdCardSlot("user-card"), holdCardSlot("user-card")]);
    expect(holds.sort()).toEqual([false, true]);
    await releaseCardSlot("user-card");
    expect(await holdCardSlot("user-card")).toBe(true);
  });
});
