import type { LoaderFunctionArgs } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ACTIONS, POLICY, ROLE_NAMES, ROLES, type Action, type Role } from "~/domain/access-policy";
import { loader as activityLoader } from "~/routes/_portal.account_.activity";
import { loader as invoicesLoader } from "~/routes/_portal.account_.invoices";
import { loader as payLoader } from "~/routes/_portal.account_.invoices.$invoiceId.pay";
import { loader as correctLoader } from "~/routes/_portal.account_.invoices.$invoiceId.correct";
import { action as teamAction, loader as teamLoader } from "~/routes/_portal.account_.team";
import { loader as downloadLoader } from "~/routes/_portal.licenses.$licenseId.download";
import { loader as autoRenewLoader } from "~/routes/_portal.licenses.$subscriptionId.auto-renew";
import { loader as updateLoader } from "~/routes/_portal.licenses.$subscriptionId.update.product";
import { loader as licensesLoader } from "~/routes/_portal.licenses";
import { loader as hubUrlLoader } from "~/routes/_portal.hubs.new.url";
import { action as quoteAction } from "~/routes/_portal.quotes.$quoteId._index";
import { loader as planLoader } from "~/routes/_portal.store.subscribe.plan";
import { loader as trialLoader } from "~/routes/_portal.trial.$hubType.welcome";
import { action as invitationAction, loader as invitationLoader } from "~/routes/invitations.$token";
import { action as loginAction } from "~/routes/login";
import { action as switchAction } from "~/routes/organizations.switch";
import { memberActor } from "~/server/accounts/activity.server";
import { db } from "~/server/platform/database/db.server";
import { outboxPage } from "~/server/mail/index.server";
import { changeRole, LAST_OWNER, MembershipRefused, removeMember } from "~/server/accounts/organizations.server";
import { activity, licenses, memberships, sessions } from "~/server/platform/database/tables.server";
import { runJobs } from "../support/jobs";
import { createAccount, memberByEmail } from "../support/members";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

/** Members, roles and invitations: every check is the server's. */

const PASSWORD = "GateKeeper-demo-1";
const DAY = 24 * 60 * 60 * 1000;
let clients = 0;

afterEach(() => vi.useRealTimers());

async function signIn(email: string, password = PASSWORD): Promise<string> {
  clients += 1;
  const response = await respond(async () =>
    loginAction({
      request: await formRequest("/login", { email, password }),
      params: {},
      context: { clientAddress: `198.51.100.${clients}` },
    }),
  );
  return cookieFrom(response.headers.get("Set-Cookie"));
}

type Loader = (args: LoaderFunctionArgs) => unknown;
const open = (loader: Loader, path: string, cookie: string, params: Record<string, string> = {}) =>
  respond(async () => loader({ request: getRequest(path, cookie), params, context: {} }));
const postTo = async (
  action: Loader,
  path: string,
  fields: Record<string, string>,
  cookie = "",
  params: Record<string, string> = {},
) => respond(async () => action({ request: await formRequest(path, fields, { cookie }), params, context: {} }));

const customer = async () => (await memberByEmail("customer@example.com")).organization;
async function demoLicense() {
  const [license] = await db.select().from(licenses).where(eq(licenses.externalLicenseId, "GK-NWC-2026-0001"));
  if (!license) throw new Error("The demo license is missing.");
  return license;
}

/** The policy's rows about roles alone (for every kind of organization, staff aside): the role table. */
const ROLE_ACTIONS = ACTIONS.filter(
  (action) => !("kinds" in POLICY[action]) && !("staff" in POLICY[action]) && !("onlyWhenManaged" in POLICY[action]),
);

/** One page or post of each action of the role table, as the member's browser reaches it. */
const REACH: Partial<Record<Action, (cookie: string) => Promise<Response>>> = {
  purchase: (cookie) => open(planLoader, "/store/subscribe/plan", cookie),
  "licenses.update": (cookie) =>
    open(updateLoader, "/licenses/sub_demo_core_monthly/update/product", cookie, {
      subscriptionId: "sub_demo_core_monthly",
    }),
  "billing.manage": (cookie) => open(invoicesLoader, "/account/invoices", cookie),
  "invoices.pay": (cookie) => open(payLoader, "/account/invoices/inv_x/pay", cookie, { invoiceId: "inv_x" }),
  "invoices.correct": (cookie) =>
    open(correctLoader, "/account/invoices/inv_x/correct", cookie, { invoiceId: "inv_x" }),
  "licenses.auto_renew": (cookie) =>
    open(autoRenewLoader, "/licenses/sub_demo_core_monthly/auto-renew", cookie, {
      subscriptionId: "sub_demo_core_monthly",
    }),
  "licenses.download": async (cookie) => {
    const { id } = await demoLicense();
    return open(downloadLoader, `/licenses/${id}/download`, cookie, { licenseId: id });
  },
  "hubs.deploy": (cookie) => open(hubUrlLoader, "/hubs/new/url", cookie),
  "trials.start": (cookie) => open(trialLoader, "/trial/cloud/welcome", cookie, { hubType: "cloud" }),
  "members.manage": (cookie) =>
    postTo(teamAction, "/account/team", { intent: "invite", email: "x@example.com", role: "viewer" }, cookie),
  "activity.view": (cookie) => open(activityLoader, "/account/activity", cookie),
  // A post of no known intent: past the right, it is a 400.
  "quotes.manage": (cookie) => postTo(quoteAction, "/quotes/q_x", { intent: "neither" }, cookie, { quoteId: "q_x" }),
};

describe("the role table, on the server", { timeout: 120_000 }, () => {
  const cookies = new Map<Role, string>();
  async function cookieOf(role: Role) {
    const known = cookies.get(role);
    if (known) return known;
    const email = `${role}@northwind.example`;
    await createAccount(email, (await memberByEmail("customer@example.com")).user.passwordHash, {
      role,
      organizationId: (await customer()).id,
    });
    const cookie = await signIn(email);
    cookies.set(role, cookie);
    return cookie;
  }

  it("covers every action", () => {
    expect(Object.keys(REACH).sort()).toEqual([...ROLE_ACTIONS].sort());
  });

  for (const role of ROLES) {
    for (const action of ROLE_ACTIONS) {
      const allowed = (POLICY[action].roles as readonly Role[]).includes(role);
      it(`${allowed ? "lets" : "refuses"} a ${ROLE_NAMES[role]}: ${action}`, async () => {
        const response = await REACH[action]!(await cookieOf(role));
        const body = response.status === 403 ? await response.json() : null;
        if (allowed) {
          expect(body?.message ?? "").not.toMatch(/^Your role/);
        } else {
          expect(response.status).toBe(403);
          expect(body.message).toBe(
            `Your role in Northwind Clinics is ${ROLE_NAMES[role]}, which cannot ${POLICY[action].what}. ${body.message.split(". ").at(-1)}`,
          );
        }
      });
    }
  }
});

describe("the last Owner", { timeout: 60_000 }, () => {
  it("can neither leave nor be demoted; with a second Owner, both can", async () => {
    const hash = (await memberByEmail("customer@example.com")).user.passwordHash;
    const { organizationId } = await createAccount("first-owner@solo.example", hash);
    await createAccount("second@solo.example", hash, { organizationId, role: "technical_contact" });
    const owner = await signIn("first-owner@solo.example");
    const { user } = await memberByEmail("first-owner@solo.example");
    const demote = await postTo(
      teamAction,
      "/account/team",
      { intent: "role", userId: user.id, role: "viewer" },
      owner,
    );
    expect(demote.status).toBe(422);
    expect((await demote.json()).formError).toMatch(/at least one Owner/);
    const leave = await postTo(teamAction, "/account/team", { intent: "leave" }, owner);
    expect(leave.status).toBe(422);
    expect((await memberByEmail("first-owner@solo.example")).role).toBe("owner");

    const second = (await memberByEmail("second@solo.example")).user;
    await postTo(teamAction, "/account/team", { intent: "role", userId: second.id, role: "owner" }, owner);
    const demoted = await postTo(
      teamAction,
      "/account/team",
      { intent: "role", userId: user.id, role: "billing_admin" },
      owner,
    );
    expect(demoted.status).toBe(302);
    expect((await memberByEmail("first-owner@solo.example")).role).toBe("billing_admin");
    expect(await db.select().from(activity).where(eq(activity.action, "member.role_changed"))).toHaveLength(2);
  });
});

describe("two Owners at once", { timeout: 60_000 }, () => {
  /** An organization whose only members are two Owners. */
  async function twoOwners(label: string) {
    const hash = (await memberByEmail("customer@example.com")).user.passwordHash;
    const { organizationId } = await createAccount(`a@${label}.example`, hash);
    await createAccount(`b@${label}.example`, hash, { organizationId, role: "owner" });
    const [a, b] = [(await memberByEmail(`a@${label}.example`)).user, (await memberByEmail(`b@${label}.example`)).user];
    return { organizationId, a, b };
  }

  const owners = async (organizationId: string) =>
    db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")));

  const expectOneRefused = (outcomes: PromiseSettledResult<unknown>[]) => {
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const [refused] = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(refused.reason).toBeInstanceOf(MembershipRefused);
    expect((refused.reason as Error).message).toBe(LAST_OWNER);
  };

  it("demoting each other: one is refused, and the organization keeps an Owner", async () => {
    const { organizationId, a, b } = await twoOwners("demoting");
    expectOneRefused(
      await Promise.allSettled([
        changeRole(organizationId, a.id, "viewer", memberActor(b)),
        changeRole(organizationId, b.id, "viewer", memberActor(a)),
      ]),
    );
    expect(await owners(organizationId)).toHaveLength(1);
  });

  it("both leaving: one is refused, and the organization keeps an Owner", async () => {
    const { organizationId, a, b } = await twoOwners("leaving");
    expectOneRefused(
      await Promise.allSettled([
        removeMember(organizationId, a.id, memberActor(a)),
        removeMember(organizationId, b.id, memberActor(b)),
      ]),
    );
    expect(await owners(organizationId)).toHaveLength(1);
  });
});

describe("invitations", { timeout: 120_000 }, () => {
  const invite = (cookie: string, email: string, role: Role) =>
    postTo(teamAction, "/account/team", { intent: "invite", email, role }, cookie);

  async function invitationToken(email: string) {
    await runJobs();
    const mail = (await outboxPage(1, 50)).messages.find((message) => message.to === email);
    const token = /\/invitations\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
    if (!token) throw new Error(`No invitation mailed to ${email}`);
    return token;
  }

  it("lets a new person accept once with a name and a password, as the role, verified; then removing them ends their session", async () => {
    const owner = await signIn("customer@example.com");
    expect((await invite(owner, "Sam@Newhire.example", "technical_contact")).status).toBe(302);
    const token = await invitationToken("sam@newhire.example");
    const offer = await (await open(invitationLoader, `/invitations/${token}`, "", { token })).json();
    expect(offer.offer).toMatchObject({
      organizationName: "Northwind Clinics",
      role: "technical_contact",
      hasAccount: false,
    });

    const accepted = await postTo(
      invitationAction,
      `/invitations/${token}`,
      {
        intent: "create",
        firstName: "Sam",
        lastName: "Hire",
        new_password: "Sam-password-1",
        confirm_password: "Sam-password-1",
      },
      "",
      { token },
    );
    expect(accepted.headers.get("Location")).toBe("/home");
    const sam = await memberByEmail("sam@newhire.example");
    expect(sam.role).toBe("technical_contact");
    expect(sam.organization.id).toBe((await customer()).id);
    expect(sam.user.emailVerifiedAt).not.toBeNull();
    expect(await db.select().from(activity).where(eq(activity.action, "member.joined"))).toHaveLength(1);
    // Used: the link does nothing more.
    const again = await postTo(
      invitationAction,
      `/invitations/${token}`,
      {
        intent: "create",
        firstName: "Eve",
        lastName: "Else",
        new_password: "Eve-password-1",
        confirm_password: "Eve-password-1",
      },
      "",
      { token },
    );
    expect(again.status).toBe(409);

    const samCookie = cookieFrom(accepted.headers.get("Set-Cookie"));
    expect((await open(licensesLoader, "/licenses", samCookie)).status).toBe(200);
    const removed = await postTo(teamAction, "/account/team", { intent: "remove", userId: sam.user.id }, owner);
    expect(removed.status).toBe(302);
    expect(await db.select().from(sessions).where(eq(sessions.userId, sam.user.id))).toEqual([]);
    const after = await open(licensesLoader, "/licenses", samCookie);
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toMatch(/^\/login/);
  });

  it("never gives an existing account to whoever holds the link: its owner signs in to accept", async () => {
    const owner = await signIn("customer@example.com");
    await invite(owner, "distributor@example.com", "viewer");
    const token = await invitationToken("distributor@example.com");
    const offer = await (await open(invitationLoader, `/invitations/${token}`, "", { token })).json();
    expect(offer.offer.hasAccount).toBe(true);
    const taken = await postTo(
      invitationAction,
      `/invitations/${token}`,
      {
        intent: "create",
        firstName: "Mal",
        lastName: "Lory",
        new_password: "Mal-password-1",
        confirm_password: "Mal-password-1",
      },
      "",
      { token },
    );
    expect(taken.status).toBe(409);
    // Someone else signed in cannot join with it either.
    const technical = await signIn("technical@example.com");
    const wrongPerson = await postTo(invitationAction, `/invitations/${token}`, { intent: "join" }, technical, {
      token,
    });
    expect(wrongPerson.status).toBe(409);
    expect((await memberByEmail("distributor@example.com")).organization.name).not.toBe("Northwind Clinics");

    const distributor = await signIn("distributor@example.com");
    const joined = await postTo(invitationAction, `/invitations/${token}`, { intent: "join" }, distributor, { token });
    expect(joined.headers.get("Location")).toBe("/home");
    const { user } = await memberByEmail("distributor@example.com");
    const rows = await db.select().from(memberships).where(eq(memberships.userId, user.id));
    expect(rows.map((row) => row.role).sort()).toEqual(["owner", "viewer"]);
  });

  it("one person in two organizations sees only the one they work in, and switches in the session", async () => {
    const distributor = await memberByEmail("distributor@example.com");
    const cookie = await signIn("distributor@example.com");
    const northwind = await customer();
    const own = distributor.organization;
    const inOwn = await (await open(licensesLoader, "/licenses", cookie)).json();
    const ownIds = (await db.select({ id: licenses.id }).from(licenses).where(eq(licenses.ownerId, own.id))).map(
      (row) => row.id,
    );
    expect(inOwn.licenses.every((license: { id: string }) => ownIds.includes(license.id))).toBe(true);
    // A license of the other organization is 404 while working in this one.
    const foreign = await demoLicense();
    expect(
      (await open(downloadLoader, `/licenses/${foreign.id}/download`, cookie, { licenseId: foreign.id })).status,
    ).toBe(404);

    const switched = await postTo(
      switchAction,
      "/organizations/switch",
      { organizationId: northwind.id, redirectTo: "/licenses" },
      cookie,
    );
    expect(switched.status).toBe(302);
    const inNorthwind = await (await open(licensesLoader, "/licenses", cookie)).json();
    const northwindIds = (
      await db.select({ id: licenses.id }).from(licenses).where(eq(licenses.ownerId, northwind.id))
    ).map((row) => row.id);
    expect(inNorthwind.licenses.length).toBeGreaterThan(0);
    expect(inNorthwind.licenses.every((license: { id: string }) => northwindIds.includes(license.id))).toBe(true);
    // As a Viewer there: no downloads, and the Store's wizard is refused.
    expect(inNorthwind.licenses.every((license: { downloadUrl: string | null }) => license.downloadUrl === null)).toBe(
      true,
    );
    expect((await open(planLoader, "/store/subscribe/plan", cookie)).status).toBe(403);
    // An organization they are not in cannot be switched to.
    const stranger = await createAccount("stranger@else.example", distributor.user.passwordHash);
    const refused = await postTo(
      switchAction,
      "/organizations/switch",
      { organizationId: stranger.organizationId },
      cookie,
    );
    expect(refused.status).toBe(404);
  });

  it("revoked or replaced, an old link stops working; unused, it stops after 7 days", async () => {
    const owner = await signIn("customer@example.com");
    await invite(owner, "revoked@newhire.example", "viewer");
    const revokedToken = await invitationToken("revoked@newhire.example");
    const team = await (await open(teamLoader, "/account/team", owner)).json();
    const pending = team.invitations.find((row: { email: string }) => row.email === "revoked@newhire.example");
    await postTo(teamAction, "/account/team", { intent: "revoke", invitationId: pending.id }, owner);
    expect(
      (await (await open(invitationLoader, `/invitations/${revokedToken}`, "", { token: revokedToken })).json()).offer,
    ).toBeNull();

    await invite(owner, "resent@newhire.example", "viewer");
    const first = await invitationToken("resent@newhire.example");
    const again = (await (await open(teamLoader, "/account/team", owner)).json()).invitations.find(
      (row: { email: string }) => row.email === "resent@newhire.example",
    );
    await postTo(teamAction, "/account/team", { intent: "resend", invitationId: again.id }, owner);
    await runJobs();
    const mails = (await outboxPage(1, 100)).messages.filter((message) => message.to === "resent@newhire.example");
    expect(mails).toHaveLength(2);
    const second = /\/invitations\/([A-Za-z0-9_-]+)/.exec(mails[0].text)![1];
    expect(second).not.toBe(first);
    expect(
      (await (await open(invitationLoader, `/invitations/${first}`, "", { token: first })).json()).offer,
    ).toBeNull();
    expect(
      (await (await open(invitationLoader, `/invitations/${second}`, "", { token: second })).json()).offer,
    ).not.toBeNull();

    vi.useFakeTimers({ now: Date.now() + 7 * DAY + 60_000, toFake: ["Date"] });
    expect(
      (await (await open(invitationLoader, `/invitations/${second}`, "", { token: second })).json()).offer,
    ).toBeNull();
  });

  it("refuses an address that is a member already, and keeps what was typed", async () => {
    const owner = await signIn("customer@example.com");
    const response = await invite(owner, "technical@example.com", "viewer");
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      formError: "technical@example.com is already a member of this organization.",
    });
    const invalid = await invite(owner, "not-an-address", "chief" as Role);
    expect(await invalid.json()).toMatchObject({
      fieldErrors: { email: "Invalid Email", role: "Choose a role." },
      values: { email: "not-an-address", role: "chief" },
    });
    const organizationId = (await customer()).id;
    expect(
      (
        await db
          .select()
          .from(memberships)
          .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")))
      ).length,
    ).toBeGreaterThanOrEqual(1);
  });
});

describe("the team page", { timeout: 60_000 }, () => {
  it("pages the members and the pending invitations ten at a time in SQL, and opens one member's panel", async () => {
    const hash = (await memberByEmail("customer@example.com")).user.passwordHash;
    const { organizationId } = await createAccount("owner@many.example", hash);
    for (let n = 0; n < 24; n += 1) {
      await createAccount(`member-${String(n).padStart(2, "0")}@many.example`, hash, {
        organizationId,
        role: "viewer",
      });
    }
    const owner = await signIn("owner@many.example");
    const first = await (await open(teamLoader, "/account/team", owner)).json();
    expect(first).toMatchObject({ total: 25, pages: 3, page: 1, managing: null });
    expect(first.members).toHaveLength(10);
    const last = await (await open(teamLoader, "/account/team?page=3", owner)).json();
    expect(last.members).toHaveLength(5);
    expect((await open(teamLoader, "/account/team?page=9", owner)).headers.get("Location")).toBe(
      "/account/team?page=3",
    );
    const someone = last.members[0];
    const panel = await (await open(teamLoader, `/account/team?page=3&manage=${someone.userId}`, owner)).json();
    expect(panel.managing).toMatchObject({ userId: someone.userId, role: "viewer" });
    // Another organization's member is no one to manage here.
    const stranger = (await memberByEmail("customer@example.com")).user.id;
    expect((await (await open(teamLoader, `/account/team?manage=${stranger}`, owner)).json()).managing).toBeNull();
  });
});
