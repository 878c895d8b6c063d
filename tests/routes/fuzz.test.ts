import type { ActionFunctionArgs } from "@remix-run/node";
import { is, Table } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { beforeAll, describe, expect, it } from "vitest";
import * as accountCardReplace from "~/routes/_portal.account.cards.$sourceId.replace";
import * as accountCardNew from "~/routes/_portal.account.cards.new";
import * as accountProfile from "~/routes/_portal.account.profile";
import * as accountShipping from "~/routes/_portal.account.shipping";
import * as account from "~/routes/_portal.account";
import * as subscribeBillingCardReplace from "~/routes/_portal.store.subscribe.billing.cards.$sourceId.replace";
import * as subscribeBillingCardNew from "~/routes/_portal.store.subscribe.billing.cards.new";
import * as subscribeBillingProfile from "~/routes/_portal.store.subscribe.billing.profile";
import * as subscribeBillingShipping from "~/routes/_portal.store.subscribe.billing.shipping";
import * as subscribeBilling from "~/routes/_portal.store.subscribe.billing";
import * as subscribeHardware from "~/routes/_portal.store.subscribe.hardware";
import * as subscribeHosting from "~/routes/_portal.store.subscribe.hosting";
import * as subscribeOrder from "~/routes/_portal.store.subscribe.order";
import * as subscribePlan from "~/routes/_portal.store.subscribe.plan";
import * as subscribeReview from "~/routes/_portal.store.subscribe.review";
import * as subscribeSupport from "~/routes/_portal.store.subscribe.support";
import * as subscribe from "~/routes/_portal.store.subscribe";
import * as orderProgress from "~/routes/_portal.store.orders.$jobId";
import * as quotePage from "~/routes/_portal.quotes.$quoteId._index";
import * as quoteLink from "~/routes/quote.$token._index";
import * as login from "~/routes/login";
import * as logout from "~/routes/logout";
import * as signInLinkRequest from "~/routes/login_.link";
import * as signInLink from "~/routes/login_.link_.$token";
import * as sidebar from "~/routes/preferences.sidebar";
import { getBilling } from "~/server/billing/index.server";
import { db } from "~/server/platform/database/db.server";
import { tables } from "~/server/platform/database/tables.server";
import { findUserByEmail } from "~/server/accounts/users.server";
import { memberByEmail, type TestMember } from "../support/members";
import { cookieFrom, formRequest } from "../support/requests";

/**
 * Hostile input: at least 1,000 malformed forms, spread over every action, from a signed-in distributor. No answer may be a 5xx (a thrown error is one), and no row of another account may change.
 */
const FORMS_PER_ACTION = 60;

type Action = (args: ActionFunctionArgs) => unknown;
const ACTIONS: [string, Action][] = [
  ["/login", login.action],
  ["/login/link", signInLinkRequest.action],
  ["/login/link/:id", signInLink.action],
  ["/preferences/sidebar", sidebar.action],
  ["/account", account.action],
  ["/account/cards/new", accountCardNew.action],
  ["/account/cards/:id/replace", accountCardReplace.action],
  ["/account/profile", accountProfile.action],
  ["/account/shipping", accountShipping.action],
  ["/store/subscribe", subscribe.action],
  ["/store/subscribe/plan", subscribePlan.action],
  ["/store/subscribe/hosting", subscribeHosting.action],
  ["/store/subscribe/support", subscribeSupport.action],
  ["/store/subscribe/hardware", subscribeHardware.action],
  ["/store/subscribe/billing", subscribeBilling.action],
  ["/store/subscribe/billing/cards/new", subscribeBillingCardNew.action],
  ["/store/subscribe/billing/cards/:id/replace", subscribeBillingCardReplace.action],
  ["/store/subscribe/billing/profile", subscribeBillingProfile.action],
  ["/store/subscribe/billing/shipping", subscribeBillingShipping.action],
  ["/store/subscribe/review", subscribeReview.action],
  ["/store/subscribe/order", subscribeOrder.action],
  ["/store/orders/:id", orderProgress.action],
  ["/quotes/:id", quotePage.action],
  ["/quote/:id", quoteLink.action],
  // Last: a well-formed sign-out ends the fuzzing session.
  ["/logout", logout.action],
];

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  return { next, pick };
}

const FIELDS = [
  "email",
  "password",
  "redirectTo",
  "sidebar",
  "subaction",
  "intent",
  "firstName",
  "lastName",
  "company",
  "phone",
  "phone_country",
  "old_password",
  "new_password",
  "confirm_password",
  "first_name",
  "last_name",
  "address_line1",
  "address_line2",
  "address_city",
  "address_state",
  "address_zip",
  "address_country",
  "card_number",
  "card_expiry",
  "card_cvc",
  "card_setup",
  "set_as_primary",
  "idempotency_key",
  "line1",
  "line2",
  "city",
  "state",
  "zip",
  "country",
  "hosting",
  "offsiteAccess",
  "organization",
  "tier",
  "users",
  "coupon",
  "payment_source_id",
  "orderKey",
  "cycle",
] as const;
const PROTOTYPE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
];
const INTENTS = [
  "apply-coupon",
  "remove-coupon",
  "next",
  "back",
  "save",
  "cycle",
  "cancel",
  "place-order",
  "profile",
  "password",
  "sign-out-others",
  "delete",
  "x",
];
const VALUES = [
  "",
  " ",
  "0",
  "-1",
  "1e309",
  "NaN",
  "Infinity",
  "true",
  "null",
  "undefined",
  "[object Object]",
  "{}",
  "[]",
  '{"__proto__":{"isGKAdmin":true}}',
  "<script>alert(1)</script>",
  '" onmouseover="alert(1)',
  "'; drop table users; --",
  "../../etc/passwd",
  "/\t/evil.example/",
  "//evil.example",
  "javascript:alert(1)",
  "%00",
  "\u0000",
  "\u202e\u0041",
  "ｆｕｌｌｗｉｄｔｈ",
  "🙂".repeat(50),
  "e\u0301\u0301\u0301",
  "\u200b\u200b",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "9".repeat(400),
  "on",
  "off",
  "cloud",
  "on-premise",
  "satellite",
  "yearly",
  "monthly",
  "weekly",
  "core",
  "advanced",
  "ultimate",
  "US",
  "ZZ",
  "usa",
  "4242 4242 4242 4242",
  "4000 0000 0000 0002",
  "09 / 31",
  "13 / 99",
  "123",
  "WELCOME10",
  "../coupons/x",
  "A/B?c=d",
  "customer@example.com",
  "not-an-email",
  "pm_" + "x".repeat(30),
  "cust_demo_customer",
  "00000000-0000-4000-8000-000000000000",
];

interface Malformed {
  contentType: string | null;
  body: string | FormData;
  withCsrf: boolean;
  sourceId: string;
}

function malformedForm(random: ReturnType<typeof generator>, csrf: string, otherSourceId: string): Malformed {
  const entries: [string, string][] = [];
  const count = Math.floor(random.next() * 12);
  for (let index = 0; index < count; index += 1) {
    const roll = random.next();
    const name = roll < 0.12 ? random.pick(PROTOTYPE_KEYS) : roll < 0.15 ? "x".repeat(5_000) : random.pick(FIELDS);
    const kind = random.next();
    const value =
      kind < 0.1
        ? random.pick(VALUES).repeat(2_000 + Math.floor(random.next() * 20_000))
        : kind < 0.2
          ? random.pick(INTENTS)
          : random.pick(VALUES);
    entries.push([name, value]);
    // An array for a scalar: the same field again with another value.
    if (random.next() < 0.2) entries.push([name, random.pick(VALUES)]);
  }
  if (random.next() < 0.3) entries.push(["intent", random.pick(INTENTS)]);
  if (random.next() < 0.3) entries.push(["subaction", random.pick(INTENTS)]);
  const withCsrf = random.next() < 0.85;
  if (withCsrf) entries.push(["csrf", csrf]);
  const sourceId = random.pick(["constructor", "__proto__", "../x", otherSourceId, "pm_unknown", "%2e%2e"]);
  const shape = random.next();
  if (shape < 0.6)
    return {
      contentType: "application/x-www-form-urlencoded",
      body: new URLSearchParams(entries).toString(),
      withCsrf,
      sourceId,
    };
  if (shape < 0.75) {
    const form = new FormData();
    for (const [name, value] of entries) form.append(name, value);
    return { contentType: null, body: form, withCsrf, sourceId };
  }
  const json = JSON.stringify(Object.fromEntries(entries));
  return random.pick<Malformed>([
    { contentType: "application/json", body: json, withCsrf, sourceId },
    { contentType: "text/plain", body: json, withCsrf, sourceId },
    {
      contentType: "multipart/form-data; boundary=gk",
      body: `--gk\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${csrf}`,
      withCsrf,
      sourceId,
    },
    { contentType: "multipart/form-data", body: "no boundary at all", withCsrf, sourceId },
    { contentType: "application/x-www-form-urlencoded; charset=utf-16", body: "%ZZ=%ZZ&&&==&", withCsrf, sourceId },
  ]);
}

/** Every row of every table that names one of the ids, as text, for a before/after comparison. */
async function rowsNaming(ids: string[]): Promise<string[]> {
  const rows = await Promise.all(
    Object.entries(tables)
      // The throttle's counters change with every request, by design.
      .filter(([name, table]) => is(table, Table) && name !== "rateLimits")
      .map(async ([name, table]) =>
        (await db.select().from(table as PgTable)).map((row) => `${name} ${JSON.stringify(row)}`),
      ),
  );
  return rows
    .flat()
    .filter((row) => ids.some((id) => row.includes(id)))
    .sort();
}

async function statusOf(run: () => unknown): Promise<number> {
  try {
    const result = await run();
    return result instanceof Response ? result.status : 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe("the fuzz suite", { timeout: 300_000 }, () => {
  let fuzzer: TestMember;
  let cookie = "";
  let csrf = "";
  let othersIds: string[] = [];
  let othersBefore: string[] = [];
  let otherSourceId = "pm_none";
  let sent = 0;
  let passedCsrf = 0;

  beforeAll(async () => {
    const signedIn = await statusOfSignIn("distributor@example.com");
    cookie = signedIn.cookie;
    csrf = new URLSearchParams(await (await formRequest("/", {}, { cookie })).text()).get("csrf") ?? "";
    fuzzer = await memberByEmail("distributor@example.com");
    const others = await Promise.all(
      ["customer@example.com", "admin@example.com"].map((email) => memberByEmail(email)),
    );
    othersIds = others
      .flatMap((member) => [member.user.id, member.organization.id, member.organization.billingCustomerId ?? ""])
      .filter(Boolean);
    otherSourceId = (await getBilling().listPaymentSources("cust_demo_customer"))[0]?.id ?? otherSourceId;
    othersBefore = await rowsNaming(othersIds);
  });

  it.each(ACTIONS)("never answers %s with a 5xx", async (path, action) => {
    const random = generator([...path].reduce((hash, char) => Math.imul(hash, 31) + char.charCodeAt(0), 7));
    for (let index = 0; index < FORMS_PER_ACTION; index += 1) {
      const form = malformedForm(random, csrf, otherSourceId);
      const headers = new Headers({ Cookie: cookie });
      if (form.contentType) headers.set("Content-Type", form.contentType);
      const request = new Request(`http://portal.test${path.replace(":id", encodeURIComponent(form.sourceId))}`, {
        method: "POST",
        headers,
        body: form.body,
      });
      const status = await statusOf(() =>
        action({
          request,
          params: { sourceId: form.sourceId, jobId: form.sourceId, token: form.sourceId, quoteId: form.sourceId },
          context: { clientAddress: "192.0.2.200" },
        }),
      );
      sent += 1;
      if (status !== 403) passedCsrf += 1;
      expect(status, `${path} form #${index}`).toBeLessThan(500);
    }
    expect(await rowsNaming(othersIds), "other accounts' data").toEqual(othersBefore);
  });

  it("sent at least 1,000 malformed forms, and the fuzzing account is still there", async () => {
    expect(sent).toBeGreaterThanOrEqual(1_000);
    // Most forms carry the session's token, so they reach each action's parsing rather than stop at the CSRF check.
    expect(passedCsrf / sent).toBeGreaterThan(0.7);
    expect((await findUserByEmail("distributor@example.com"))?.id).toBe(fuzzer.user.id);
  });
});

async function statusOfSignIn(email: string) {
  const request = await formRequest("/login", { email, password: "GateKeeper-demo-1" });
  const response = (await login.action({ request, params: {}, context: {} })) as Response;
  return { cookie: cookieFrom(response.headers.get("Set-Cookie")) };
}
