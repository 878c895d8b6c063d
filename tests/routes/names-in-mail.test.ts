import type { ActionFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newMemberSchema, signUpSchema } from "~/domain/accounts";
import { MAX_NAME_LENGTH, NAME_CHARACTERS, NAME_NO_WEB_ADDRESS } from "~/domain/names";
import { profileSchema } from "~/domain/profile";
import { tooLong } from "~/domain/text-limits";
import { action as adminCustomersAction } from "~/routes/_portal.admin.customers";
import { action as teamAction } from "~/routes/_portal.account_.team";
import { action as forgotAction } from "~/routes/forgot-password";
import { action as loginAction } from "~/routes/login";
import { action as signUpAction } from "~/routes/signup";
import { outboxPage } from "~/server/mail/index.server";
import { db } from "~/server/platform/database/db.server";
import { organizations, users } from "~/server/platform/database/tables.server";
import { runJobs } from "../support/jobs";
import { memberByEmail } from "../support/members";
import { cookieFrom, formRequest, respond } from "../support/requests";
import { NEW_PASSWORD, signUpForm } from "../support/sign-in";

/**
 * Mail carries only what the portal vouches for: names of people and organizations are plain names, refused at
 * their field otherwise; mail to an address nobody has verified names nobody; and a name kept from before the rule
 * is shown quoted, as data.
 */
const PASSWORD = NEW_PASSWORD;
const PHISHING = "Your GateKeeper account is locked. Restore it at https://gatekeeper-support.example/restore";
let client = 0;

const post = async (
  action: (args: ActionFunctionArgs) => Promise<unknown>,
  path: string,
  fields: Record<string, string>,
  cookie = "",
) =>
  respond(async () =>
    action({
      request: await formRequest(path, fields, { cookie }),
      params: {},
      context: { clientAddress: `203.0.113.${(client += 1)}` },
    }),
  );

async function mailsTo(email: string) {
  await runJobs();
  return (await outboxPage(1, 100)).messages.filter((message) => message.to === email);
}

const errorOf = (result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));

describe("names of people and organizations", { timeout: 120_000 }, () => {
  it("are refused at the sign-up's field when they carry a link, an address, a line break or too much, and nothing is mailed", async () => {
    const refusals: [Record<string, string>, string, string][] = [
      [{ firstName: PHISHING }, "firstName", NAME_NO_WEB_ADDRESS],
      [{ firstName: "Nora https://evil.example" }, "firstName", NAME_NO_WEB_ADDRESS],
      [{ lastName: "write to help@evil.example" }, "lastName", NAME_CHARACTERS],
      [{ company: "ACME\r\nBcc: someone@evil.example" }, "company", NAME_CHARACTERS],
      [{ company: "A <b>bold</b> company" }, "company", NAME_CHARACTERS],
      [{ company: "x".repeat(MAX_NAME_LENGTH + 1) }, "company", tooLong(MAX_NAME_LENGTH)],
    ];
    for (const [names, field, message] of refusals) {
      const email = `refused-${client}@names.example`;
      const response = await post(signUpAction, "/signup", signUpForm(email, names));
      expect(response.status).toBe(422);
      const body = await response.json();
      expect(body.errors[field]).toBe(message);
      // What was typed comes back, for the form without JavaScript.
      expect(body.typed[field]).toBe(names[field]);
      expect(await mailsTo(email)).toEqual([]);
    }
  });

  it("may be written in any script, with accents, digits and ordinary punctuation", () => {
    for (const name of [
      "José Ñúñez-O'Brien",
      "Zoë",
      "Müller & Söhne (GmbH)",
      "北京公司",
      "R2-D2 Labs, Inc.",
      "A/S Norð",
    ]) {
      expect(
        errorOf(signUpSchema.safeParse(signUpForm("ok@names.example", { firstName: name, company: name }))),
      ).toEqual({});
    }
  });

  it("are plain names on every form that takes one: the profile, accepting an invitation, an administrator's new organization", async () => {
    const profile = { firstName: "Dana", lastName: "Whitfield", company: PHISHING, phone_country: "US", phone: "" };
    expect(errorOf(profileSchema.safeParse(profile)).company).toBe(NAME_NO_WEB_ADDRESS);
    const member = {
      firstName: "Sam@evil.example",
      lastName: "Hire",
      new_password: PASSWORD,
      confirm_password: PASSWORD,
    };
    expect(errorOf(newMemberSchema.safeParse(member)).firstName).toBe(NAME_CHARACTERS);

    const signedIn = await post(loginAction, "/login", { email: "admin@example.com", password: "GateKeeper-demo-1" });
    const admin = cookieFrom(signedIn.headers.get("Set-Cookie"));
    const opened = await post(
      adminCustomersAction,
      "/admin/customers",
      { name: "Visit https://evil.example", customerType: "customer" },
      admin,
    );
    expect(opened.status).toBe(422);
    expect((await opened.json()).fieldErrors.name).toBe(NAME_NO_WEB_ADDRESS);
  });
});

describe("mail to an address", { timeout: 120_000 }, () => {
  it("names nobody while the address is not verified: the verification mail, and a reset link to that account", async () => {
    const email = "unverified@names.example";
    expect((await post(signUpAction, "/signup", signUpForm(email, { firstName: "Nora" }))).status).toBe(200);
    const [verification] = await mailsTo(email);
    expect(verification.subject).toBe("Verify your email address for the GateKeeper Portal");
    expect(verification.text).toMatch(/^Hello,\n\nPlease confirm that unverified@names\.example is your address\./);
    expect(verification.text).not.toContain("Nora");

    expect((await post(forgotAction, "/forgot-password", { email })).status).toBe(200);
    const reset = (await mailsTo(email)).find((mail) => mail.subject.startsWith("Set a new password"));
    expect(reset?.text).toMatch(/^Hello,\n/);
    expect(reset?.text).not.toContain("Nora");
  });

  it("greets a verified account by its first name", async () => {
    expect((await post(forgotAction, "/forgot-password", { email: "customer@example.com" })).status).toBe(200);
    const reset = (await mailsTo("customer@example.com")).find((mail) => mail.subject.startsWith("Set a new password"));
    const { user } = await memberByEmail("customer@example.com");
    expect(reset?.text).toMatch(new RegExp(`^Hello ${user.firstName},\\n`));
  });

  it("shows an organization's or a person's name kept from before the rule quoted, as data, and keeps it out of the subject", async () => {
    const owner = await memberByEmail("customer@example.com");
    const legacyName = `ACME\r\n${PHISHING}\r\n${PHISHING}`;
    await db.update(organizations).set({ name: legacyName }).where(eq(organizations.id, owner.organization.id));
    await db.update(users).set({ firstName: "Call +1 555 0100 or" }).where(eq(users.id, owner.user.id));
    await db.update(users).set({ lastName: "visit https://evil.example" }).where(eq(users.id, owner.user.id));
    try {
      const signedIn = await post(loginAction, "/login", { email: owner.user.email, password: "GateKeeper-demo-1" });
      const cookie = cookieFrom(signedIn.headers.get("Set-Cookie"));
      const invited = await post(
        teamAction,
        "/account/team",
        { intent: "invite", email: "invitee@names.example", role: "viewer" },
        cookie,
      );
      expect(invited.status).toBe(302);
      const [mail] = await mailsTo("invitee@names.example");
      expect(mail.subject).toBe("You are invited to an organization on the GateKeeper Portal");
      expect(mail.text).toContain(
        "Someone who calls themselves “Call +1 555 0100 or visit https://evil.example” invited you to join an " +
          `organization that calls itself “${`ACME ${PHISHING} ${PHISHING}`.slice(0, 99)}…” on the GateKeeper Portal as Viewer`,
      );
      expect(mail.text.split("\n").some((line) => line.startsWith(PHISHING.slice(0, 20)))).toBe(false);
    } finally {
      await db
        .update(organizations)
        .set({ name: owner.organization.name })
        .where(eq(organizations.id, owner.organization.id));
      await db
        .update(users)
        .set({ firstName: owner.user.firstName, lastName: owner.user.lastName })
        .where(eq(users.id, owner.user.id));
    }
  });
});
