import type { AppLoadContext } from "@remix-run/node";
import { RateLimiterRes, RateLimiterSQLite } from "rate-limiter-flexible";
import { sqlite } from "./db.server";
import { env } from "./env.server";

/**
 * Throttles on the counters in the rate_limits table (rate-limiter-flexible's SQLite store on the portal's
 * own connection): they survive a restart, every server process shares them, and each consume is one
 * atomic upsert, so parallel requests cannot all slip under a limit. Decision 051.
 */
function limiter(keyPrefix: string, points: number, durationSeconds: number) {
  return new RateLimiterSQLite({
    storeClient: sqlite,
    storeType: "better-sqlite3",
    tableName: "rate_limits",
    // The table comes from the portal's migrations (db/schema.ts), not from the library.
    tableCreated: true,
    keyPrefix,
    points,
    duration: durationSeconds,
  });
}

const WINDOW_SECONDS = 15 * 60;
const MAX_DELAY_SECONDS = 15 * 60;

/** The client's address as scripts/server.mjs saw it (socket, or TRUST_PROXY hops); "unknown" outside it. */
export function clientAddressOf(context: AppLoadContext | undefined): string {
  return context?.clientAddress || "unknown";
}

/** Seconds until a limiter that refused may be tried again. */
function secondsOf(refusal: unknown): number {
  if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
  throw refusal;
}

/** Consumes one point; 0 when allowed, else the seconds to wait. */
async function take(rateLimiter: RateLimiterSQLite, key: string): Promise<number> {
  try {
    await rateLimiter.consume(key);
    return 0;
  } catch (refusal) {
    return secondsOf(refusal);
  }
}

// --- Sign-in -------------------------------------------------------------------------------------------

const signIn = {
  /** One address cannot walk through many accounts. */
  byAddress: limiter("login-address", env.LOGIN_MAX_FAILURES * 10, WINDOW_SECONDS),
  /** One address cannot guess one account's password more than a few times. */
  byAccountAndAddress: limiter("login-account-address", env.LOGIN_MAX_FAILURES, WINDOW_SECONDS),
  /** Failures on an account from anywhere, for the growing delay. */
  accountFailures: limiter("login-account-failures", 10_000, 60 * 60),
  /** The growing delay itself: blocked keys are accounts that must wait. */
  accountDelay: limiter("login-account-delay", 1, 1),
};

/**
 * The growing delay once the account's failures (from any address) pass the limit: 2, 4, 8 … seconds, at
 * most 15 minutes.
 * It applies to browsers that never signed in to the account; one that did (the known-device cookie) skips
 * it, so a stranger's guessing slows the stranger, not the owner.
 */
export function accountDelaySeconds(failures: number): number {
  const over = failures - env.LOGIN_MAX_FAILURES;
  return over <= 0 ? 0 : Math.min(2 ** over, MAX_DELAY_SECONDS);
}

export interface SignInAttempt {
  /** Seconds to wait before trying again; 0 when this attempt may go ahead. */
  waitSeconds: number;
  succeeded(): Promise<void>;
  failed(): Promise<void>;
}

/**
 * Reserves a sign-in attempt before the password is checked (so parallel guesses are counted as they
 * come), to be given back when the password was right.
 */
export async function reserveSignInAttempt(
  context: AppLoadContext | undefined,
  email: string,
  { knownDevice }: { knownDevice: boolean },
): Promise<SignInAttempt> {
  const address = clientAddressOf(context);
  const account = email.trim().toLowerCase();
  const pair = `${account}|${address}`;
  const noop = async () => {};
  if (!knownDevice) {
    const delay = await signIn.accountDelay.get(account);
    if (delay && delay.consumedPoints > 1) {
      return { waitSeconds: secondsOf(delay), succeeded: noop, failed: noop };
    }
  }
  const byAddressWait = await take(signIn.byAddress, address);
  if (byAddressWait) return { waitSeconds: byAddressWait, succeeded: noop, failed: noop };
  const pairWait = await take(signIn.byAccountAndAddress, pair);
  if (pairWait) {
    await signIn.byAddress.reward(address, 1);
    return { waitSeconds: pairWait, succeeded: noop, failed: noop };
  }
  return {
    waitSeconds: 0,
    async succeeded() {
      await Promise.all([signIn.byAddress.reward(address, 1), signIn.byAccountAndAddress.delete(pair)]);
    },
    async failed() {
      const failures = (await signIn.accountFailures.penalty(account, 1)).consumedPoints;
      const seconds = accountDelaySeconds(failures);
      if (seconds > 0) await signIn.accountDelay.block(account, seconds);
    },
  };
}

// --- Password change and coupons ---------------------------------------------------------------------------

const passwordChanges = limiter("password-change", env.LOGIN_MAX_FAILURES, WINDOW_SECONDS);

/** Reserves a password-change attempt for the user (0 = go ahead, else seconds to wait); give it back on success. */
export const reservePasswordChange = (userId: string) => take(passwordChanges, userId);
export const releasePasswordChange = async (userId: string) => {
  await passwordChanges.reward(userId, 1);
};

/** Coupon Apply is a provider call with a guessable secret: 10 tries a user per 10 minutes. */
const couponApplies = limiter("coupon-apply", 10, 10 * 60);

/** Counts one coupon Apply for the user: 0 when allowed, else the seconds to wait. */
export const takeCouponApply = (userId: string) => take(couponApplies, userId);

/**
 * The one-card limit's lock (issue 9 §9): adding a card holds it, so two tabs adding at once cannot both
 * pass the "no card yet" check. It expires by itself should a process die holding it.
 */
const cardSlots = limiter("card-add", 1, 2 * 60);

/** True when this request now holds the user's card slot; release it when the add is over. */
export async function holdCardSlot(userId: string): Promise<boolean> {
  return (await take(cardSlots, userId)) === 0;
}

export async function releaseCardSlot(userId: string): Promise<void> {
  await cardSlots.delete(userId);
}

/** "Please wait N minutes": what a throttled form says. */
export function waitMessage(what: string, seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many ${what}. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
}
