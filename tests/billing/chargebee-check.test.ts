import { execFile } from "node:child_process";
import { tokenOf } from "../support/card-tokens";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runChargebeeCheck } from "~/server/billing/chargebee/check.server";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { db } from "~/server/platform/database/db.server";
import { billingCustomers } from "~/server/platform/database/tables.server";
import {
  FAKE_API_KEY,
  FAKE_GATEWAY_ACCOUNT_ID,
  FAKE_SITE,
  startChargebeeFake,
  type ChargebeeFake,
} from "../fakes/chargebee";

/**
 * `npm run chargebee:check` walks every call the portal makes on a throwaway customer. CI has no Chargebee
 * site, so here it walks the loopback fake, which refuses what a real site refuses: a call the adapter gets
 * wrong fails here first.
 */
let fake: ChargebeeFake;

beforeAll(async () => {
  fake = await startChargebeeFake({ store: db, now: () => new Date() });
});
afterAll(() => fake.close());

async function cardToken() {
  const form = new FormData();
  form.set("card_number", "4242424242424242");
  form.set("card_expiry", "12/34");
  form.set("card_cvc", "123");
  return tokenOf(
    createLocalCards({ store: db }),
    form,
    { firstName: "Chargebee", lastName: "Check" },
    crypto.randomUUID(),
  );
}

const testSite = async () => ({
  CHARGEBEE_SITE: "gatekeeper-test",
  CHARGEBEE_API_KEY: FAKE_API_KEY,
  CHARGEBEE_GATEWAY_ACCOUNT_ID: FAKE_GATEWAY_ACCOUNT_ID,
  CHARGEBEE_CHECK_CARD_TOKEN: await cardToken(),
});

/** The site's name is checked as given; the SDK is then pointed at the fake. */
const toFake = () => ({ site: FAKE_SITE, endpoint: { protocol: "http" as const, hostSuffix: "", port: fake.port } });

const CALLS = [
  "plan.list",
  "addon.list",
  "coupon.retrieve",
  "estimate.create_subscription",
  "customer.create",
  "customer.update",
  "customer.update_billing_info",
  "payment_source.create_using_temp_token",
  "payment_source.list",
  "estimate.create_subscription_estimate",
  "subscription.create_for_customer",
  "subscription.list",
  "estimate.update_subscription",
  "subscription.update",
  "subscription.override_billing_profile",
  "invoice.create",
  "invoice.list",
  "invoice.retrieve",
  "invoice.pdf",
  "payment_intent.create",
  "payment_intent.retrieve",
  "subscription.cancel",
  "subscription.remove_scheduled_cancellation",
  "event.list",
  "payment_source.delete_local",
  "subscription.delete",
  "customer.delete",
];

const checkCustomers = async () =>
  (await db.select({ id: billingCustomers.id }).from(billingCustomers)).filter((customer) =>
    customer.id.startsWith("cust_check_"),
  );

describe("chargebee:check", () => {
  it("walks every call the portal makes on a throwaway customer, prints each, and deletes the customer", async () => {
    const lines: string[] = [];
    const exitCode = await runChargebeeCheck(await testSite(), (line) => lines.push(line), toFake());
    if (process.env.PRINT_CHECK) console.log(lines.join("\n"));
    expect(lines.slice(1, -1).map((line) => line.split(/\s+/)[1])).toEqual(CALLS);
    expect(lines.slice(1, -1).every((line) => line.startsWith("✓"))).toBe(true);
    expect(lines[0]).toBe("Chargebee check on gatekeeper-test: every call the portal makes, on a throwaway customer.");
    expect(lines.at(-1)).toBe(`All ${CALLS.length} calls went through.`);
    expect(lines.find((line) => line.includes("subscription.create_for_customer"))).toMatch(
      /active, 3 x core-monthly, add-ons gatekeeper-cloud-monthly$/,
    );
    expect(exitCode).toBe(0);
    expect(fake.refusals).toEqual([]);
    expect(await checkCustomers()).toEqual([]);
  });

  it("reports a call Chargebee refuses, skips what needs it, and still cleans up", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    fake.answerNextWith(
      {
        status: 400,
        json: {
          message: "addons[unit_price][1] : price overriding is not enabled for your site",
          type: "invalid_request",
          api_error_code: "param_wrong_value",
          http_status_code: 400,
        },
      },
      { method: "POST", path: "/api/v2/invoices" },
    );
    const lines: string[] = [];
    expect(await runChargebeeCheck(await testSite(), (line) => lines.push(line), toFake())).toBe(1);
    expect(lines.find((line) => line.includes("invoice.create"))).toMatch(
      /^✗ invoice\.create\s+Chargebee invoice\.create failed: addons\[unit_price\]\[1\] : price overriding/,
    );
    for (const skipped of ["invoice.list", "invoice.retrieve", "invoice.pdf"]) {
      expect(lines.find((line) => line.includes(skipped))).toMatch(new RegExp(`^- ${skipped}\\s+needs the invoice$`));
    }
    expect(lines.find((line) => line.includes("customer.delete"))).toMatch(/^✓/);
    expect(lines.at(-1)).toBe(`4 of ${CALLS.length} calls did not go through.`);
    expect(await checkCustomers()).toEqual([]);
  });

  it("refuses a live site, a live key and a missing key before calling anything", async () => {
    const before = fake.requests.length;
    const lines: string[] = [];
    const live = { ...(await testSite()), CHARGEBEE_SITE: "gatekeeper" };
    expect(await runChargebeeCheck(live, (line) => lines.push(line), toFake())).toBe(2);
    const liveKey = { ...(await testSite()), CHARGEBEE_API_KEY: "live_abc" };
    expect(await runChargebeeCheck(liveKey, (line) => lines.push(line), toFake())).toBe(2);
    const noKey = { ...(await testSite()), CHARGEBEE_API_KEY: "" };
    expect(await runChargebeeCheck(noKey, (line) => lines.push(line), toFake())).toBe(2);
    expect(lines).toEqual([
      "chargebee:check refused: CHARGEBEE_SITE must be a test site (its name ends in -test): the check creates and charges a customer",
      "chargebee:check refused: CHARGEBEE_API_KEY is a live site's key (live_...): the check needs a test site's",
      "chargebee:check refused: CHARGEBEE_API_KEY is required",
    ]);
    expect(fake.requests.length).toBe(before);
  });

  it("is the npm script's command", async () => {
    const env = { PATH: process.env.PATH, NODE_ENV: "test" as const, CHARGEBEE_SITE: "gatekeeper" };
    const failure = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/chargebee-check.ts"], {
      env,
    }).catch((error: { code: number; stdout: string }) => error);
    expect(failure).toMatchObject({ code: 2, stdout: expect.stringContaining("CHARGEBEE_SITE must be a test site") });
  });
});
