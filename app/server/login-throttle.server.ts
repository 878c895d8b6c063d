import cluster from "node:cluster";
import { RateLimiterCluster, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { getClientIPAddress } from "remix-utils/get-client-ip-address";
import { env } from "./env.server";

/**
 * Failed sign-ins are counted per account and address (so one attacker cannot lock out every user)
 * and per address (so one address cannot walk through many accounts). A success clears the account's count.
 */
const WINDOW_SECONDS = 15 * 60;

/**
 * Under scripts/start.mjs (one process per core) the counts live in the cluster's primary, shared by all
 * workers: counted per worker, an attacker would get one budget per core.
 */
const limiter = (keyPrefix: string, points: number) =>
  cluster.isWorker
    ? new RateLimiterCluster({ keyPrefix, points, duration: WINDOW_SECONDS, timeoutMs: 3000 })
    : new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });

const perAccount = limiter("login-account", env.LOGIN_MAX_FAILURES);
const perAddress = limiter("login-address", env.LOGIN_MAX_FAILURES * 10);

function keys(request: Request, email: string) {
  const address = getClientIPAddress(request) ?? "unknown-address";
  return { account: `${email.trim().toLowerCase()}|${address}`, address };
}

/** Seconds until another attempt is allowed, or 0 when the visitor may try now. */
export async function secondsUntilLoginAllowed(request: Request, email: string): Promise<number> {
  const { account, address } = keys(request, email);
  const [accountState, addressState] = await Promise.all([perAccount.get(account), perAddress.get(address)]);
  const blocked = [
    [accountState, env.LOGIN_MAX_FAILURES],
    [addressState, env.LOGIN_MAX_FAILURES * 10],
  ].filter(([state, limit]) => state instanceof RateLimiterRes && state.consumedPoints >= (limit as number));
  if (blocked.length === 0) return 0;
  return Math.max(...blocked.map(([state]) => Math.ceil((state as RateLimiterRes).msBeforeNext / 1000)));
}

export async function recordFailedLogin(request: Request, email: string): Promise<void> {
  const { account, address } = keys(request, email);
  // consume() rejects once the budget is spent; the next attempt is then refused up front.
  await Promise.allSettled([perAccount.consume(account), perAddress.consume(address)]);
}

export async function clearFailedLogins(request: Request, email: string): Promise<void> {
  await perAccount.delete(keys(request, email).account);
}
