import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { action as newCardAction } from "~/routes/_portal.account.cards.new";
import { action as replaceAction } from "~/routes/_portal.account.cards.$sourceId.replace";
import { action as wizardReplaceAction } from "~/routes/_portal.store.subscribe.billing.cards.$sourceId.replace";
import { loader as returnLoader } from "~/routes/_portal.account_.cards.return";
import { action as bankAction, loader as bankLoader } from "~/routes/cards.authenticate.$attemptId";
import { loadPaymentStep } from "~/server/account-billing/billing-details.server";
import { toastStorage } from "~/server/accounts/session.server";
import { CARD_MESSAGES } from "~/server/providers/test-cards.server";
import { memberByEmail } from "../support/members";
import { formRequest, getRequest } from "../support/requests";
import { demoCookie } from "../support/sign-in";

/**
 * Saving a card whose bank asks the cardholder to authenticate it (the embedded gateway's 3-D Secure test cards),
 * through the account's card drawers, the bank's page and the return from it, called as Remix calls them.
 */

type Route = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

const settle = (run: Promise<unknown>) =>
  run.then(
    (response) => response as Response,
    (thrown: unknown) => (thrown instanceof Response ? thrown : Promise.reject(thrown)),
  );

const get = async (route: Route, path: string, email: string | null, params: Record<string, string> = {}) =>
  settle(route({ request: getRequest(path, email ? await demoCookie(email) : ""), params, context: {} }));

async function post(
  route: Route,
  path: string,
  email: string | null,
  fields: Record<string, string>,
  params: Record<string, string> = {},
) {
  const request = await formRequest(path, fields, { cookie: email ? await demoCookie(email) : "" });
  return settle(route({ request, params, context: {} }));
}

async function toastOf(response: Response) {
  const session = await toastStorage().getSession(response.headers.get("Set-Cookie"));
  return session.get("toast") as { kind: string; message: string } | undefined;
}

const card = (number: string) => ({
  first_name: "Alex",
  last_name: "Morgan",
  address_line1: "1 Harbour Way",
  address_city: "Seattle",
  address_state: "WA",
  address_zip: "98101",
  address_country: "US",
  set_as_primary: "on",
  card_number: number,
  card_expiry: "09 / 31",
  card_cvc: "123",
  idempotency_key: crypto.randomUUID(),
});

/** The bank's page a card drawer sent the cardholder to: its path and the setup's id. */
function bankPageOf(response: Response) {
  expect(response.status).toBe(302);
  const location = response.headers.get("Location") ?? "";
  const match = /^\/cards\/authenticate\/(seti_local_[\w-]+)$/.exec(location);
  expect(match, location).not.toBeNull();
  return { path: location, attemptId: match![1] };
}

/** What the bank's page shows. */
const bankPage = (page: { path: string; attemptId: string }) =>
  bankLoader({ request: getRequest(page.path), params: { attemptId: page.attemptId }, context: {} });

/** Answers the bank's page; the return address it sends the cardholder to. */
async function answerBank(page: { path: string; attemptId: string }, outcome: "complete" | "fail") {
  const response = await post(bankAction, page.path, null, { outcome }, { attemptId: page.attemptId });
  expect(response.status).toBe(302);
  return response.headers.get("Location") ?? "";
}

async function sourcesOf(email: string) {
  const step = await loadPaymentStep(await memberByEmail(email));
  return step.status === "ready" ? step.sources : [];
}

const cardsOf = async (email: string) => (await sourcesOf(email)).map((source) => source.card?.last4);

describe("saving a card the bank asks to authenticate", () => {
  it("saves it once after the bank's page, and refuses the same authentication again", async () => {
    const page = bankPageOf(
      await post(newCardAction, "/account/cards/new", "admin@example.com", card("4000 0027 6000 3184")),
    );
    expect(await cardsOf("admin@example.com")).toEqual([]);
    expect(await bankPage(page)).toMatchObject({
      waiting: true,
    });
    // Back without an answer: to the bank's page again.
    const early = await get(returnLoader, `/account/cards/return?setup_intent=${page.attemptId}`, "admin@example.com");
    expect(early.headers.get("Location")).toBe(page.path);

    const back = await answerBank(page, "complete");
    expect(back).toBe(`/account/cards/return?setup_intent=${page.attemptId}&redirect_status=succeeded`);
    // Another organization cannot use it.
    expect((await get(returnLoader, back, "distributor@example.com")).status).toBe(404);

    const saved = await get(returnLoader, back, "admin@example.com");
    expect(saved.headers.get("Location")).toBe("/account");
    expect(await toastOf(saved)).toEqual({ kind: "success", message: "Successfully added new payment method." });
    expect(await cardsOf("admin@example.com")).toEqual(["3184"]);

    // A reload of the bank's page answers nothing twice; a second return saves nothing.
    expect(await bankPage(page)).toMatchObject({
      waiting: false,
      returnUrl: back,
    });
    expect(await answerBank(page, "fail")).toBe(back);
    const again = await get(returnLoader, back, "admin@example.com");
    expect(await toastOf(again)).toEqual({
      kind: "info",
      message: "This card authentication was used already: the card was saved once.",
    });
    expect(await cardsOf("admin@example.com")).toEqual(["3184"]);
  });

  it("keeps the old card when the authentication fails, and says why", async () => {
    const path = "/account/cards/src_demo_visa/replace";
    const params = { sourceId: "src_demo_visa" };
    const failed = bankPageOf(
      await post(replaceAction, path, "customer@example.com", card("4000 0025 0000 3155"), params),
    );
    const back = await answerBank(failed, "fail");
    expect(back).toContain("redirect_status=failed");
    const refused = await get(returnLoader, back, "customer@example.com");
    expect(refused.headers.get("Location")).toBe("/account");
    expect(await toastOf(refused)).toEqual({
      kind: "error",
      message: `Failed to add payment method. ${CARD_MESSAGES.authenticationFailed}`,
    });
    expect(await cardsOf("customer@example.com")).toEqual(["4242"]);

    const page = bankPageOf(
      await post(replaceAction, path, "customer@example.com", card("4000 0000 0000 3220"), params),
    );
    const replaced = await get(returnLoader, await answerBank(page, "complete"), "customer@example.com");
    expect(await toastOf(replaced)).toEqual({ kind: "success", message: "Successfully replaced new payment method." });
    expect(await cardsOf("customer@example.com")).toEqual(["3220"]);
  });

  it("comes back to the page the drawer was opened over: the purchase wizard's payment step", async () => {
    const [old] = await sourcesOf("admin@example.com");
    const path = `/store/subscribe/billing/cards/${old.id}/replace`;
    const posted = await post(wizardReplaceAction, path, "admin@example.com", card("4000 0027 6000 3184"), {
      sourceId: old.id,
    });
    const saved = await get(returnLoader, await answerBank(bankPageOf(posted), "complete"), "admin@example.com");
    expect(saved.headers.get("Location")).toBe("/store/subscribe/billing");
    expect(await toastOf(saved)).toEqual({ kind: "success", message: "Successfully replaced new payment method." });
    expect((await sourcesOf("admin@example.com")).map((source) => source.id)).not.toContain(old.id);
  });

  it("saves once when two tabs come back from the bank's page at the same moment", async () => {
    const [old] = await sourcesOf("customer@example.com");
    const path = `/account/cards/${old.id}/replace`;
    const posted = await post(replaceAction, path, "customer@example.com", card("4000 0025 0000 3155"), {
      sourceId: old.id,
    });
    const back = await answerBank(bankPageOf(posted), "complete");
    const both = await Promise.all([
      get(returnLoader, back, "customer@example.com"),
      get(returnLoader, back, "customer@example.com"),
    ]);
    expect((await Promise.all(both.map(toastOf))).map((toast) => toast?.kind).sort()).toEqual(["info", "success"]);
    expect(await cardsOf("customer@example.com")).toEqual(["3155"]);
  });

  it("finishes a save its return names by a Checkout session's id (Stripe without JavaScript) as by the setup's", async () => {
    const [old] = await sourcesOf("customer@example.com");
    const posted = await post(
      replaceAction,
      `/account/cards/${old.id}/replace`,
      "customer@example.com",
      card("4000 0027 6000 3184"),
      {
        sourceId: old.id,
      },
    );
    const page = bankPageOf(posted);
    await answerBank(page, "complete");
    const back = `/account/cards/return?session_id=${page.attemptId}`;
    expect((await get(returnLoader, back, "distributor@example.com")).status).toBe(404);
    const saved = await get(returnLoader, back, "customer@example.com");
    expect(await toastOf(saved)).toEqual({ kind: "success", message: "Successfully replaced new payment method." });
    expect(await cardsOf("customer@example.com")).toEqual(["3184"]);
  });

  it("knows no authentication that is not the embedded gateway's", async () => {
    const missing = await get(bankLoader, "/cards/authenticate/seti_local_nothing", null, {
      attemptId: "seti_local_nothing",
    });
    expect(missing.status).toBe(404);
    expect((await get(returnLoader, "/account/cards/return", "admin@example.com")).status).toBe(404);
  });
});
