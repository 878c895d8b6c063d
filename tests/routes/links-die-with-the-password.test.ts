import type { ActionFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { action as accountAction } from "~/routes/_portal.account";
import { action as forgotAction } from "~/routes/forgot-password";
import { action as loginAction } from "~/routes/login";
import { action as linkRequestAction } from "~/routes/login_.link";
import { action as signInLinkAction } from "~/routes/login_.link_.$token";
import { action as resetAction } from "~/routes/reset-password.$token";
import {
  issueOneTimeToken,
  peekOneTimeToken,
  TOKEN_PURPOSES,
  type TokenPurpose,
} from "~/server/accounts/one-time-tokens.server";
import { findUserByEmail } from "~/server/accounts/users.server";
import { outboxPage } from "~/server/mail/index.server";
import { runJobs } from "../support/jobs";
import { cookieFrom, formRequest, respond } from "../support/requests";

/**
 * A mailed link that signs its holder in or sets the password dies with the password: whoever read the mailbox for
 * a moment keeps no way in after a password change, a reset or "Sign out everywhere else".
 */
const PASSWORD = "GateKeeper-demo-1";
const NEW_PASSWORD = "Brand-new-pass-1";
let client = 0;

const post = async (
  action: (args: ActionFunctionArgs) => Promise<unknown>,
  path: string,
  fields: Record<string, string>,
  { params = {}, cookie = "" }: { params?: Record<string, string>; cookie?: string } = {},
) =>
  respond(async () =>
    action({
      request: await formRequest(path, fields, { cookie }),
      params,
      // Each post from its own client, so that the per-client limits of one test do not meet another's.
      context: { clientAddress: `198.51.100.${(client += 1)}` },
    }),
  );

async function signedIn(email: string, password = PASSWORD): Promise<string> {
  const response = await post(loginAction, "/login", { email, password });
  expect(response.status).toBe(302);
  return cookieFrom(response.headers.get("Set-Cookie"));
}

/** Asks the page for its link, runs the mail jobs and returns the link's token from the message. */
async function mailedToken(kind: "reset" | "sign-in", email: string): Promise<string> {
  const [action, page, subject, path] =
    kind === "reset"
      ? [forgotAction, "/forgot-password", "Set a new password for the GateKeeper Portal", "/reset-password"]
      : [linkRequestAction, "/login/link", "Your sign-in link for the GateKeeper Portal", "/login/link"];
  expect((await post(action, page, { email })).status).toBe(200);
  await runJobs();
  const message = (await outboxPage(1, 100)).messages.find((mail) => mail.to === email && mail.subject === subject);
  const token = new RegExp(`${path}/([A-Za-z0-9_-]+)`).exec(message?.text ?? "")?.[1];
  if (!token) throw new Error(`No ${kind} link was mailed to ${email}.`);
  return token;
}

const useReset = (token: string) =>
  post(
    resetAction,
    `/reset-password/${token}`,
    { new_password: "Another-pass-2", confirm_password: "Another-pass-2" },
    { params: { token } },
  );
const useSignInLink = (token: string) => post(signInLinkAction, `/login/link/${token}`, {}, { params: { token } });

/** One token of every purpose for the person, to see which of them outlive what happens next. */
async function oneTokenOfEachPurpose(userId: string) {
  const purposes = Object.keys(TOKEN_PURPOSES) as TokenPurpose[];
  return Promise.all(
    purposes.map(async (purpose) => ({
      purpose,
      token: (await issueOneTimeToken(purpose, { userId }, { validMs: 60 * 60 * 1000 })).token,
    })),
  );
}

async function survivors(tokens: { purpose: TokenPurpose; token: string }[]) {
  const alive = await Promise.all(
    tokens.map(async ({ purpose, token }) => (await peekOneTimeToken(purpose, token)) !== null),
  );
  return tokens.filter((_, index) => alive[index]).map(({ purpose }) => purpose);
}

const outliveThePassword = (Object.keys(TOKEN_PURPOSES) as TokenPurpose[]).filter(
  (purpose) => !TOKEN_PURPOSES[purpose].diesWithPassword,
);

describe("links that die with the password", { timeout: 120_000 }, () => {
  it("are decided for every purpose a token has: a new purpose must be added here with its answer", () => {
    expect(TOKEN_PURPOSES).toEqual({
      "sign-in": { diesWithPassword: true },
      "reset-password": { diesWithPassword: true },
      "verify-email": { diesWithPassword: false },
      invitation: { diesWithPassword: false },
      quote: { diesWithPassword: false },
    });
  });

  it("stop working when the password is changed on /account, and only those die", async () => {
    const email = "customer@example.com";
    const user = (await findUserByEmail(email))!;
    const reset = await mailedToken("reset", email);
    const link = await mailedToken("sign-in", email);
    const everyPurpose = await oneTokenOfEachPurpose(user.id);
    const cookie = await signedIn(email);

    const changed = await post(
      accountAction,
      "/account",
      { subaction: "password", old_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
      { cookie },
    );
    expect(changed.status).toBe(302);

    expect((await useReset(reset)).status).toBe(410);
    expect((await useSignInLink(link)).status).toBe(410);
    expect(await survivors(everyPurpose)).toEqual(outliveThePassword);
    // The password is the one the owner set, not one a link set afterwards.
    expect((await signedIn(email, NEW_PASSWORD)).length).toBeGreaterThan(0);
  });

  it("stop working when the password is set with a reset link: the other reset links and the sign-in links", async () => {
    const email = "technical@example.com";
    const user = (await findUserByEmail(email))!;
    const link = await mailedToken("sign-in", email);
    const otherReset = await mailedToken("reset", email);
    const reset = await mailedToken("reset", email);
    const everyPurpose = await oneTokenOfEachPurpose(user.id);

    expect((await useReset(reset)).status).toBe(302);

    expect((await useSignInLink(link)).status).toBe(410);
    expect((await useReset(otherReset)).status).toBe(410);
    expect(await survivors(everyPurpose)).toEqual(outliveThePassword);
  });

  it("stop working with 'Sign out everywhere else'", async () => {
    const email = "distributor@example.com";
    const user = (await findUserByEmail(email))!;
    const reset = await mailedToken("reset", email);
    const link = await mailedToken("sign-in", email);
    const everyPurpose = await oneTokenOfEachPurpose(user.id);
    const cookie = await signedIn(email);

    expect((await post(accountAction, "/account", { subaction: "sign-out-others" }, { cookie })).status).toBe(302);

    expect((await useReset(reset)).status).toBe(410);
    expect((await useSignInLink(link)).status).toBe(410);
    expect(await survivors(everyPurpose)).toEqual(outliveThePassword);
  });
});
