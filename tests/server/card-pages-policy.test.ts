/// <reference types="vite/client" />
import { readFileSync } from "node:fs";
import path from "node:path";
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes";
import { describe, expect, it } from "vitest";
import { pageHeadersOf } from "../../scripts/server.mjs";

/**
 * The Content-Security-Policy of each page, over the app's own route tree and route modules (their handles), as
 * scripts/server.mjs answers them: with CARD_PROVIDER=stripe only the pages that take a card name Stripe's hosts
 * (decision 228); with the embedded provider none does.
 */
const APP = path.resolve(__dirname, "../../app");
const handles = import.meta.glob<unknown>("../../app/routes/*.tsx", { eager: true, import: "handle" });
const handleOf = (file: string) => handles[`../../app/${file}`];
const routes: Record<string, { id: string; path?: string; file?: string; module?: { handle: unknown } }> = {
  root: { id: "root", path: "" },
  ...Object.fromEntries(
    Object.values(flatRoutes(APP, ["**/.*", "**/*.test.*"])).map((route) => [
      route.id,
      { ...route, module: { handle: handleOf(route.file) } },
    ]),
  ),
};

const policyOf = (cardsAtStripe: boolean, pathname: string) =>
  pageHeadersOf({ routes, cardsAtStripe })({ pathname, nonce: "n0nce", https: true })["Content-Security-Policy"];

const CARD_PAGES = [
  "/account/cards/new",
  "/account/cards/src_1/replace",
  "/store/subscribe/billing/cards/new",
  "/store/orders/job_1/cards/src_1/replace",
  "/licenses/sub_1/update/billing/cards/new",
  "/licenses/updates/job_1/cards/src_1/replace",
  "/account/invoices/inv_1/pay/cards/new",
  "/account/invoices/payments/job_1/cards/src_1/replace",
  "/trial/cloud/payment",
  "/trial/onpremise/payment/cards/new",
  "/trial/runs/job_1/cards/new",
];
const OTHER_PAGES = [
  "/home",
  "/account",
  "/account/cards/return",
  "/account/invoices/inv_1/pay",
  "/store/subscribe/billing",
  "/trial/cloud/hardware",
  "/trial",
  "/no/such/page",
];

describe("the pages whose policy names Stripe", () => {
  it("with Stripe, are the pages that take a card, and those name all of Stripe's hosts", () => {
    for (const page of CARD_PAGES) {
      const policy = policyOf(true, page);
      expect(policy, page).toContain("script-src 'self' 'nonce-n0nce' https://js.stripe.com;");
      expect(policy, page).toContain("frame-src https://js.stripe.com https://hooks.stripe.com;");
      expect(policy, page).toContain("connect-src 'self' https://api.stripe.com;");
      expect(policy, page).toContain("form-action 'self' https://checkout.stripe.com;");
    }
    for (const page of OTHER_PAGES) {
      const policy = policyOf(true, page);
      expect(policy, page).not.toMatch(/stripe/i);
      expect(policy, page).toContain("script-src 'self' 'nonce-n0nce';");
      expect(policy, page).toContain("frame-src 'none';");
    }
  });

  it("with the embedded provider, are none", () => {
    for (const page of [...CARD_PAGES, ...OTHER_PAGES]) expect(policyOf(false, page), page).not.toMatch(/stripe/i);
  });

  it("include every route that renders a card form", () => {
    const cardRoutes = Object.values(routes).filter(
      (route) =>
        route.file && readFileSync(path.join(APP, route.file), "utf8").includes('from "~/ui/billing/card-drawers"'),
    );
    expect(cardRoutes.length).toBeGreaterThanOrEqual(CARD_PAGES.length);
    for (const route of cardRoutes) expect(route.module?.handle, route.id).toEqual({ cardEntry: true });
  });
});
