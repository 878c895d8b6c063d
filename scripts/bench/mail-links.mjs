import { request } from "node:http";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { copier } from "./big-account.mjs";
import { startTags } from "./html.mjs";
import { CookieJar } from "./portal.mjs";
import { median } from "./slow-link.mjs";

/** The pages that mail a link to a typed address, whose answer must take as long whether or not it has an account. */
export const MAIL_LINK_PAGES = ["/forgot-password", "/login/link"];

const WARMUP_PAIRS = 4;
const PAIRS = 40;
/** Pairs sent from one client address: each page allows 10 requests an hour from one client. */
const PAIRS_PER_CLIENT = 4;
/** Between pairs, for the job each request queued to run (and mail) before the next is timed. */
const PAUSE_MS = 150;
const ACCOUNT_EMAIL = (n) => `mail-link-${n}@bench.example`;

/**
 * Adds `count` accounts to the bench's database (copies of the demo customer, in its organization), one per timed
 * request for an address that has an account: each page allows an address 3 requests an hour.
 */
function addAccounts(databaseFile, demoEmail, count) {
  const sqlite = new Database(databaseFile);
  sqlite.pragma("busy_timeout = 5000");
  try {
    const demo = sqlite.prepare("select * from users where email = ?").get(demoEmail);
    const membership = sqlite.prepare("select * from memberships where user_id = ? limit 1").get(demo.id);
    const insertUser = copier(sqlite, "users", demo);
    const insertMembership = copier(sqlite, "memberships", membership);
    sqlite.transaction(() => {
      for (let n = 0; n < count; n += 1) {
        insertUser({ id: `bench-mail-link-${n}`, email: ACCOUNT_EMAIL(n), first_name: "Link" });
        insertMembership({ user_id: `bench-mail-link-${n}`, role: "viewer" });
      }
    })();
  } finally {
    sqlite.close();
  }
}

/** The page's form as a browser without JavaScript gets it: its CSRF cookie and hidden token. */
async function formOf(baseUrl, page) {
  const jar = new CookieJar();
  const response = await fetch(new URL(page, baseUrl));
  jar.update(response);
  const csrf = startTags(await response.text(), "input").find((input) => input.name === "csrf")?.value;
  if (!csrf) throw new Error(`${page} has no hidden csrf field`);
  return { jar, csrf };
}

/** Posts the form from `localAddress` (a loopback address of its own: the per-client limit) and times the answer. */
function timedPost(baseUrl, page, { jar, csrf }, email, localAddress) {
  const url = new URL(page, baseUrl);
  const body = new URLSearchParams({ csrf, email, redirectTo: "" }).toString();
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const post = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        localAddress,
        headers: {
          cookie: jar.header,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode, ms: performance.now() - started }));
      },
    );
    post.on("error", reject);
    post.end(body);
  });
}

/** median() rounds to whole numbers; these differences are fractions of a millisecond, so keep two decimals. */
const medianOf = (times) => median(times.map((time) => Math.round(time * 100))) / 100;

/**
 * Times each page's answer for an address that has an account and one that has none, in pairs (which goes first
 * drawn at random, so that a drift of the machine's load falls on both), each request from its own loopback
 * address and for its own address, the form fetched before the clock starts. The medians and their difference.
 */
export async function timeMailLinks(portal, demoEmail) {
  addAccounts(portal.databaseFile, demoEmail, (WARMUP_PAIRS + PAIRS) * MAIL_LINK_PAGES.length);
  const results = [];
  let account = 0;
  for (const [pageIndex, page] of MAIL_LINK_PAGES.entries()) {
    const times = { known: [], unknown: [] };
    for (let pair = 0; pair < WARMUP_PAIRS + PAIRS; pair += 1) {
      const client = `127.0.${10 + pageIndex}.${10 + Math.floor(pair / PAIRS_PER_CLIENT)}`;
      const addresses = { known: ACCOUNT_EMAIL(account), unknown: `nobody-${account}@bench.example` };
      account += 1;
      const order = Math.random() < 0.5 ? ["known", "unknown"] : ["unknown", "known"];
      for (const which of order) {
        const form = await formOf(portal.baseUrl, page);
        const { status, ms } = await timedPost(portal.baseUrl, page, form, addresses[which], client);
        if (status !== 200) throw new Error(`${page} answered ${status} for the ${which} address, not 200`);
        if (pair >= WARMUP_PAIRS) times[which].push(ms);
        await sleep(PAUSE_MS);
      }
    }
    const known = medianOf(times.known);
    const unknown = medianOf(times.unknown);
    results.push({ page, requests: PAIRS, knownMs: known, unknownMs: unknown, differenceMs: known - unknown });
  }
  return results;
}
