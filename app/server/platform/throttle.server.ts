import ipaddr from "ipaddr.js";
import type { AppLoadContext, HeadersFunction } from "@remix-run/node";
import { RateLimiterRes, type RateLimiterStoreAbstract } from "rate-limiter-flexible";
import { rateLimiter } from "~/server/platform/database/dialect.server";
import { env } from "~/server/platform/config/env.server";
import { afterBoot } from "./after-boot.server";
import { throttleRefusals } from "./metrics.server";

/**
 * Throttles on the counters in the rate_limits table (rate-limiter-flexible's store for the engine, on the
 * portal's own connection or pool): they survive a restart, every server process and instance shares them, and
 * each consume is one atomic upsert, so parallel requests cannot all slip under a limit (decisions 052 and 170).
 */
type Limiter = () => RateLimiterStoreAbstract;

function limiter(keyPrefix: string, points: number, durationSeconds: number): Limiter {
  return afterBoot(() => rateLimiter({ keyPrefix, points, duration: durationSeconds }));
}

const WINDOW_SECONDS = 15 * 60;
const HOUR_SECONDS = 60 * 60;

/** The client's address as scripts/server.mjs saw it (socket, or TRUST_PROXY hops); "unknown" outside it. */
export function clientAddressOf(context: AppLoadContext | undefined): string {
  return context?.clientAddress || "unknown";
}

/**
 * Who a per-client limit counts: an IPv4 client by its address, an IPv6 client by its /64, the network one
 * subscriber is given (any of its 2^64 addresses is the same client); an IPv4 address in IPv6 form as IPv4.
 */
export function clientKeyOf(context: AppLoadContext | undefined): string {
  const address = clientAddressOf(context);
  const zoneless = address.split("%")[0];
  if (!ipaddr.IPv6.isValid(zoneless)) return address;
  const ipv6 = ipaddr.IPv6.parse(zoneless);
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  return `${ipv6.parts
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/**
 * The mailbox an address reaches, as the per-address limits count it: case folded and the `+tag` of a
 * sub-address dropped, so that `Victim+1@…` and `victim+2@…` share victim@…'s allowance. (Providers that also
 * ignore dots, as Gmail does, would need a list of them; the portal keeps none, so dots still count.)
 */
export function mailboxKeyOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 0) return address;
  const local = address.slice(0, at);
  const plus = local.indexOf("+");
  return `${plus > 0 ? local.slice(0, plus) : local}${address.slice(at)}`;
}

/** Seconds until a limiter that refused may be tried again. */
function secondsOf(refusal: unknown): number {
  if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
  throw refusal;
}

/** Consumes one point; 0 when allowed, else the seconds to wait. */
async function take(rateLimiter: Limiter, key: string): Promise<number> {
  try {
    await rateLimiter().consume(key);
    return 0;
  } catch (refusal) {
    const waitSeconds = secondsOf(refusal);
    throttleRefusals.inc({ limit: rateLimiter().keyPrefix });
    return waitSeconds;
  }
}

type Allowance = { limiter: Limiter; key: string };

/**
 * Takes one point of each allowance, in order, each atomically (one upsert), so that parallel requests are
 * counted as they come, never all let through by a read that preceded every write. When one refuses, the
 * points already taken are given back: nothing was tried. Returns the refusing allowance's wait, or 0.
 */
async function takeAll(allowances: Allowance[]): Promise<{ waitSeconds: number; refusedBy: Allowance | null }> {
  for (const [index, allowance] of allowances.entries()) {
    const waitSeconds = await take(allowance.limiter, allowance.key);
    if (waitSeconds > 0) {
      await Promise.all(allowances.slice(0, index).map(({ limiter, key }) => limiter().reward(key, 1)));
      return { waitSeconds, refusedBy: allowance };
    }
  }
  return { waitSeconds: 0, refusedBy: null };
}

// --- Sign-in -------------------------------------------------------------------------------------------

/** Checks an hour the account's browsers it does not know get together, from any number of addresses. */
export const UNTRUSTED_CHECKS_PER_HOUR = env.LOGIN_MAX_FAILURES * 2;

/**
 * Sign-in attempts, after OWASP's device cookies (decision 170). Every allowance is taken before the password
 * is checked; a failed check keeps what it took, a successful one gives its points back.
 */
const signIn = {
  /** One address cannot walk through many accounts. */
  byAddress: limiter("login-address", env.LOGIN_MAX_FAILURES * 10, WINDOW_SECONDS),
  /** One address cannot guess one account's password more than a few times. */
  byAccountAndAddress: limiter("login-account-address", env.LOGIN_MAX_FAILURES, WINDOW_SECONDS),
  /**
   * The account's allowance for every browser it does not know, from any address: once spent, sign-in from
   * them pauses until the hour is out. However many addresses a guesser spreads over, the account gets this
   * many checks an hour; its owner signs in from a known browser, or through a mailed one-time link.
   */
  untrustedClients: limiter("login-untrusted", UNTRUSTED_CHECKS_PER_HOUR, HOUR_SECONDS),
  /** A known browser's own allowance: a stolen device cookie buys a few guesses, not the account's owner's pass. */
  knownDevice: limiter("login-device", env.LOGIN_MAX_FAILURES, WINDOW_SECONDS),
};

export interface SignInAttempt {
  /** Seconds to wait before trying again; 0 when this attempt may go ahead. */
  waitSeconds: number;
  /** The account's untrusted browsers are paused: a known browser, or a mailed sign-in link, still gets in. */
  accountPaused: boolean;
  /** The password was right: the points this attempt took are given back, and the owner's typos forgotten. */
  succeeded(): Promise<void>;
}

/**
 * Reserves a sign-in attempt before the password is checked: from a known device of the account (`deviceId`,
 * see known-devices.server) its own allowance, else the address's with this account and the account's
 * allowance for untrusted browsers; and the address's overall allowance either way. A failure keeps them spent.
 */
export async function reserveSignInAttempt(
  context: AppLoadContext | undefined,
  email: string,
  deviceId: string | null,
): Promise<SignInAttempt> {
  const address = clientKeyOf(context);
  const account = email.trim().toLowerCase();
  const byAddress = { limiter: signIn.byAddress, key: address };
  const allowances: Allowance[] = deviceId
    ? [{ limiter: signIn.knownDevice, key: deviceId }, byAddress]
    : [
        { limiter: signIn.untrustedClients, key: account },
        { limiter: signIn.byAccountAndAddress, key: `${account}|${address}` },
        byAddress,
      ];
  const { waitSeconds, refusedBy } = await takeAll(allowances);
  return {
    waitSeconds,
    accountPaused: refusedBy?.limiter === signIn.untrustedClients,
    async succeeded() {
      // The allowances shared with others (the address's, the account's for untrusted browsers) get this
      // attempt's point back; those that are the owner's alone (this browser, this address with this account)
      // start again, so the owner's own typos never add up. Strangers' failures stay counted.
      await Promise.all(
        allowances.map(({ limiter, key }) =>
          limiter === signIn.byAddress || limiter === signIn.untrustedClients
            ? limiter().reward(key, 1)
            : limiter().delete(key),
        ),
      );
    },
  };
}

/** Whether the account's untrusted browsers are paused now (a stranger spent its allowance): decision 170. */
export async function isSignInPaused(email: string): Promise<boolean> {
  const spent = await signIn.untrustedClients().get(email.trim().toLowerCase());
  return (spent?.consumedPoints ?? 0) >= UNTRUSTED_CHECKS_PER_HOUR;
}

// --- Forms that mail an address a stranger types ---------------------------------------------------------

/**
 * A form that mails whatever address is typed into it (a sign-in link, sign-up, a password reset): per address
 * mailed, enough to retry a lost message and too few to flood an inbox; per client, whatever the addresses.
 */
function mailedAddressLimits(name: string) {
  return {
    byEmail: limiter(`${name}-email`, 3, HOUR_SECONDS),
    byAddress: limiter(`${name}-address`, 10, HOUR_SECONDS),
  };
}

type MailedAddressLimits = ReturnType<typeof mailedAddressLimits>;

/**
 * Counts a request per mailbox (mailboxKeyOf) and per client (clientKeyOf), whether or not an account has that
 * address (so the limit tells nothing). 0 when allowed, else the seconds to wait.
 */
async function takeMailedAddress(
  limits: MailedAddressLimits,
  context: AppLoadContext | undefined,
  email: string,
): Promise<number> {
  const { waitSeconds } = await takeAll([
    { limiter: limits.byAddress, key: clientKeyOf(context) },
    { limiter: limits.byEmail, key: mailboxKeyOf(email) },
  ]);
  return waitSeconds;
}

const signInLinks = mailedAddressLimits("sign-in-link");
const signUps = mailedAddressLimits("sign-up");
const passwordResets = mailedAddressLimits("password-reset");

/** A mailed sign-in link asked for (decision 170). */
export const takeSignInLinkRequest = (context: AppLoadContext | undefined, email: string) =>
  takeMailedAddress(signInLinks, context, email);

/** A sign-up: it mails the address a verification link, or its owner a note that someone tried. */
export const takeSignUp = (context: AppLoadContext | undefined, email: string) =>
  takeMailedAddress(signUps, context, email);

/** A password reset asked for. */
export const takePasswordResetRequest = (context: AppLoadContext | undefined, email: string) =>
  takeMailedAddress(passwordResets, context, email);

/** 'Send the link again' for a verification: 3 an hour a person. */
const verificationResends = limiter("verification-resend", 3, HOUR_SECONDS);
export const takeVerificationResend = (userId: string) => take(verificationResends, userId);

/**
 * Mail an organization's member sends to an address they type (an invitation, a quote's link): 30 an hour an
 * organization, so its forms cannot be made to mail-bomb; and 5 an hour a recipient's mailbox from every organization
 * together, so that many organizations cannot either.
 */
function organizationMailLimits(name: string) {
  return {
    byOrganization: limiter(`${name}-mail`, 30, HOUR_SECONDS),
    byRecipient: limiter(`${name}-recipient`, 5, HOUR_SECONDS),
  };
}

/** Counts one message of the organization's to the address: 0 when allowed, else the seconds to wait. */
async function takeOrganizationMail(
  limits: ReturnType<typeof organizationMailLimits>,
  organizationId: string,
  email: string,
): Promise<number> {
  const { waitSeconds } = await takeAll([
    { limiter: limits.byOrganization, key: organizationId },
    { limiter: limits.byRecipient, key: mailboxKeyOf(email) },
  ]);
  return waitSeconds;
}

const invitationMails = organizationMailLimits("invitation");
const quoteMails = organizationMailLimits("quote");

/** An invitation sent or re-sent. */
export const takeInvitationMail = (organizationId: string, email: string) =>
  takeOrganizationMail(invitationMails, organizationId, email);

/** A quote's link sent. */
export const takeQuoteMail = (organizationId: string, email: string) =>
  takeOrganizationMail(quoteMails, organizationId, email);

// --- Mailed quote links -----------------------------------------------------------------------------------

/**
 * A quote's mailed link (its page, its PDF, its acceptance) asked for by a client: each request takes a point before
 * the token is looked up and a valid link gives it back, so a reader opens their quote as often as they like while
 * a client trying tokens is paused after 100 that opened nothing in 15 minutes.
 */
const quoteLinkTries = limiter("quote-link", 100, WINDOW_SECONDS);

/** Counts one try of a quote link by the client: 0 when allowed, else the seconds to wait. */
export const takeQuoteLinkTry = (context: AppLoadContext | undefined) => take(quoteLinkTries, clientKeyOf(context));

/** Gives the try back: the link was valid. */
export const giveBackQuoteLinkTry = async (context: AppLoadContext | undefined) => {
  await quoteLinkTries().reward(clientKeyOf(context), 1);
};

// --- Password change and coupons ---------------------------------------------------------------------------

const passwordChanges = limiter("password-change", env.LOGIN_MAX_FAILURES, WINDOW_SECONDS);

/** Reserves a password-change attempt for the user (0 = go ahead, else seconds to wait); give it back on success. */
export const reservePasswordChange = (userId: string) => take(passwordChanges, userId);
export const releasePasswordChange = async (userId: string) => {
  await passwordChanges().reward(userId, 1);
};

/** Coupon Apply is a provider call with a guessable secret: 10 tries a user per 10 minutes. */
const couponApplies = limiter("coupon-apply", 10, 10 * 60);

/** Counts one coupon Apply for the user: 0 when allowed, else the seconds to wait. */
export const takeCouponApply = (userId: string) => take(couponApplies, userId);

/**
 * The one-card limit's lock: adding a card holds it, so two tabs adding at once cannot both
 * pass the "no card yet" check. It expires by itself should a process die holding it.
 */
const cardSlots = limiter("card-add", 1, 2 * 60);

/** True when this request now holds the user's card slot; release it when the add is over. */
export async function holdCardSlot(userId: string): Promise<boolean> {
  return (await take(cardSlots, userId)) === 0;
}

export async function releaseCardSlot(userId: string): Promise<void> {
  await cardSlots().delete(userId);
}

const minutesOf = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
};

/** "Please wait N minutes": what a throttled form says. */
export function waitMessage(what: string, seconds: number): string {
  return `Too many ${what}. Please wait ${minutesOf(seconds)} and try again.`;
}

/** What the sign-in page says while the account's untrusted browsers are paused. */
export const signInPausedMessage = (seconds: number) =>
  `Signing in to this account from a new browser is paused for ${minutesOf(seconds)} after too many failed attempts.`;

/** A route's `headers`: the Retry-After its loader or action answered with (a 429) goes out on every kind of answer. */
export const keepRetryAfter: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};
