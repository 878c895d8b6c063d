import { asc, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rateLimits } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import {
  clientKeyOf,
  holdCardSlot,
  mailboxKeyOf,
  releaseCardSlot,
  reservePasswordChange,
  reserveSignInAttempt,
  takeCouponApply,
  takeInvitationMail,
  takePasswordResetRequest,
  takeSignInLinkRequest,
  takeSignUp,
  UNTRUSTED_CHECKS_PER_HOUR,
  type SignInAttempt,
} from "~/server/platform/throttle.server";

const at = (clientAddress: string) => ({ clientAddress });

describe("the sign-in throttle", () => {
  it("counts parallel guesses as they come: a burst from one address gets exactly the allowed number through", async () => {
    const attempts = await Promise.all(
      Array.from({ length: 12 }, () => reserveSignInAttempt(at("192.0.2.1"), "burst@example.com", null)),
    );
    expect(attempts.filter((attempt) => attempt.waitSeconds === 0)).toHaveLength(5);
    expect(attempts.filter((attempt) => attempt.waitSeconds > 0)).toHaveLength(7);
  });

  it("lets 40 parallel guesses from 8 addresses through no more often than a sequence of them", async () => {
    const guesses = (account: string) =>
      Array.from(
        { length: 40 },
        (_, index) => () => reserveSignInAttempt(at(`198.51.100.${index % 8}`), account, null),
      );
    const parallel = await Promise.all(guesses("parallel@example.com").map((guess) => guess()));
    const sequential = [];
    for (const guess of guesses("sequential@example.com")) sequential.push(await guess());
    const letThrough = (attempts: SignInAttempt[]) => attempts.filter((attempt) => attempt.waitSeconds === 0).length;
    expect(letThrough(sequential)).toBe(UNTRUSTED_CHECKS_PER_HOUR);
    expect(letThrough(parallel)).toBe(letThrough(sequential));
    // Past the allowance, every refusal says the account's new browsers are paused.
    expect(parallel.filter((attempt) => attempt.waitSeconds > 0).every((attempt) => attempt.accountPaused)).toBe(true);
  });

  it("gives the reserved points back on success, so the owner's typos never add up", async () => {
    for (let round = 0; round < 12; round += 1) {
      const attempt = await reserveSignInAttempt(at("192.0.2.2"), "owner@example.com", null);
      expect(attempt.waitSeconds).toBe(0);
      await attempt.succeeded();
    }
  });

  it("keys on the address it is given, and keeps every address to its own budget", async () => {
    for (let failure = 0; failure < 5; failure += 1) {
      const attempt = await reserveSignInAttempt(at("192.0.2.3"), "victim@example.com", null);
      expect(attempt.waitSeconds).toBe(0);
    }
    const blocked = await reserveSignInAttempt(at("192.0.2.3"), "victim@example.com", null);
    expect(blocked.waitSeconds).toBeGreaterThan(14 * 60);
    expect(blocked.accountPaused).toBe(false);
    expect((await reserveSignInAttempt(at("192.0.2.4"), "victim@example.com", null)).waitSeconds).toBe(0);
  });

  it("keeps a known browser outside the pause of the account's new browsers, with a small limit of its own", async () => {
    for (let failure = 0; failure < UNTRUSTED_CHECKS_PER_HOUR; failure += 1) {
      await reserveSignInAttempt(at(`203.0.113.${failure}`), "paused@example.com", null);
    }
    const stranger = await reserveSignInAttempt(at("203.0.113.99"), "paused@example.com", null);
    expect(stranger).toMatchObject({ accountPaused: true });
    expect(stranger.waitSeconds).toBeGreaterThan(0);
    const owner = await reserveSignInAttempt(at("203.0.113.99"), "paused@example.com", "device-of-the-owner");
    expect(owner.waitSeconds).toBe(0);
    // Someone at the owner's known browser gets a few tries of their own, no more.
    for (let failure = 1; failure < 5; failure += 1) {
      expect(
        (await reserveSignInAttempt(at("203.0.113.99"), "paused@example.com", "device-of-the-owner")).waitSeconds,
      ).toBe(0);
    }
    const device = await reserveSignInAttempt(at("203.0.113.99"), "paused@example.com", "device-of-the-owner");
    expect(device.waitSeconds).toBeGreaterThan(0);
    expect(device.accountPaused).toBe(false);
  });

  it("keeps strangers' failures counted when the owner signs in", async () => {
    for (let failure = 0; failure < UNTRUSTED_CHECKS_PER_HOUR - 1; failure += 1) {
      await reserveSignInAttempt(at(`203.0.113.${failure}`), "kept@example.com", null);
    }
    // The owner's sign-in from a new browser takes the last point and gives back only its own.
    const owner = await reserveSignInAttempt(at("192.0.2.77"), "kept@example.com", null);
    expect(owner.waitSeconds).toBe(0);
    await owner.succeeded();
    expect((await reserveSignInAttempt(at("203.0.113.50"), "kept@example.com", null)).waitSeconds).toBe(0);
    expect((await reserveSignInAttempt(at("203.0.113.51"), "kept@example.com", null)).accountPaused).toBe(true);
  });

  it("keeps its counters in the database, where a restarted or second process finds them", async () => {
    await reserveSignInAttempt(at("192.0.2.9"), "stored@example.com", null);
    const rows = await db
      .select({ key: rateLimits.key, points: rateLimits.points })
      .from(rateLimits)
      .where(like(rateLimits.key, "%stored@example.com%"))
      .orderBy(asc(rateLimits.key));
    expect(rows).toEqual([
      { key: "login-account-address:stored@example.com|192.0.2.9", points: 1 },
      { key: "login-untrusted:stored@example.com", points: 1 },
    ]);
  });
});

describe("sign-in link requests", () => {
  it("are counted per email address and per client, whether or not an account has the address", async () => {
    const waits = [];
    for (let request = 0; request < 4; request += 1) {
      waits.push(await takeSignInLinkRequest(at(`192.0.2.${100 + request}`), "nobody-here@example.com"));
    }
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeGreaterThan(0);
    const fromOneClient = [];
    for (let request = 0; request < 11; request += 1) {
      fromOneClient.push(await takeSignInLinkRequest(at("192.0.2.200"), `someone-${request}@example.com`));
    }
    expect(fromOneClient.filter((wait) => wait === 0)).toHaveLength(10);
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

describe("the limits of the forms that mail a typed address", () => {
  it("count one mailbox however its address is written: case folded, the +tag of a sub-address dropped", async () => {
    expect(mailboxKeyOf(" Victim+1@Example.COM ")).toBe("victim@example.com");
    expect(mailboxKeyOf("victim+a+b@example.com")).toBe("victim@example.com");
    expect(mailboxKeyOf("first.last@example.com")).toBe("first.last@example.com");
    for (const take of [takeSignUp, takePasswordResetRequest, takeSignInLinkRequest]) {
      const waits = [];
      for (const tag of ["", "+1", "+2", "+3"]) {
        waits.push(await take(at(`203.0.113.${waits.length + 10}`), `Mailbox-${take.name}${tag}@example.net`));
      }
      expect(waits.map((wait) => wait > 0)).toEqual([false, false, false, true]);
    }
  });

  it("count an IPv6 client by its /64, and an IPv4 address written as IPv6 as that IPv4 address", async () => {
    expect(clientKeyOf(at("2001:db8:aa:bb:1:2:3:4"))).toBe("2001:db8:aa:bb::/64");
    expect(clientKeyOf(at("2001:DB8:AA:BB::ffff"))).toBe("2001:db8:aa:bb::/64");
    expect(clientKeyOf(at("fe80::1%eth0"))).toBe("fe80:0:0:0::/64");
    expect(clientKeyOf(at("::ffff:192.0.2.7"))).toBe("192.0.2.7");
    expect(clientKeyOf(at("192.0.2.7"))).toBe("192.0.2.7");
    const waits = [];
    for (let n = 1; n <= 11; n += 1) {
      waits.push(await takePasswordResetRequest(at(`2001:db8:64:1:${n.toString(16)}::${n}`), `v6-${n}@example.net`));
    }
    expect(waits.slice(0, 10).every((wait) => wait === 0)).toBe(true);
    expect(waits[10]).toBeGreaterThan(0);
    // Another /64 is another client.
    expect(await takePasswordResetRequest(at("2001:db8:64:2::1"), "v6-other@example.net")).toBe(0);
  });

  it("count invitations per recipient's mailbox across organizations as well as per organization", async () => {
    const waits = [];
    for (let n = 0; n < 6; n += 1)
      waits.push(await takeInvitationMail(`organization-${n}`, `Invitee+${n}@example.net`));
    expect(waits.map((wait) => wait > 0)).toEqual([false, false, false, false, false, true]);
    expect(await takeInvitationMail("organization-0", "someone-else@example.net")).toBe(0);
  });
});
