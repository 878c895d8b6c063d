import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POLICY, refusal, ROLES, type Action, type Subject } from "~/domain/access-policy";
import { CHOOSE_END_CUSTOMER_ROLE } from "~/domain/customers";
import { loader as newCardLoader } from "~/routes/_portal.account.cards.new";
import { loader as invoicesLoader } from "~/routes/_portal.account_.invoices";
import { loader as customersLoader } from "~/routes/_portal.customers._index";
import { action as customerAction, loader as customerLoader } from "~/routes/_portal.customers.$customerId._index";
import { loader as homeLoader } from "~/routes/_portal.home";
import { loader as hubsLoader } from "~/routes/_portal.hubs";
import { loader as downloadLoader } from "~/routes/_portal.licenses.$licenseId.download";
import { loader as autoRenewLoader } from "~/routes/_portal.licenses.$subscriptionId.auto-renew";
import { loader as updateLoader } from "~/routes/_portal.licenses.$subscriptionId.update.product";
import { loader as licensesLoader } from "~/routes/_portal.licenses";
import { loader as storeLoader } from "~/routes/_portal.store";
import { loader as planLoader } from "~/routes/_portal.store.subscribe.plan";
import { action as invitationAction } from "~/routes/invitations.$token";
import { cloudHubLicensePage, selectableLicense } from "~/server/cloud-hubs/cloud-hub-licenses.server";
import { outboxPage } from "~/server/mail/index.server";
import { db } from "~/server/platform/database/db.server";
import { licenses, memberships, organizations, sessions, users } from "~/server/platform/database/tables.server";
import { runJobs } from "../support/jobs";
import { createAccount, memberByEmail } from "../support/members";
import { cookieFrom, openRoute as open, postRoute as post } from "../support/requests";
import { freshSession } from "../support/sign-in";

/**
 * Handing a reseller's end customer over to its people: the distributor invites them from the customer's page,
 * they see and use what was bought for their organization, and everything that costs money says whom to ask.
 */
const MANAGED = "Managed by SecureLine Resellers. Contact them to change this license.";

async function organizationNamed(name: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.name, name));
  if (!row) throw new Error(`No organization is called ${name}.`);
  return row;
}

async function licenseNamed(externalLicenseId: string) {
  const [row] = await db.select().from(licenses).where(eq(licenses.externalLicenseId, externalLicenseId));
  return row;
}

const customerPath = (id: string) => `/customers/${id}`;

/** Posts the People section's form of a customer's page as the signed-in member. */
const people = (cookie: string, customerId: string, fields: Record<string, string>) =>
  post(customerAction, customerPath(customerId), fields, cookie, { customerId });

async function invitationToken(email: string) {
  await runJobs();
  const mail = (await outboxPage(1, 50)).messages.find((message) => message.to === email);
  const token = /\/invitations\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
  if (!token) throw new Error(`No invitation mailed to ${email}`);
  return { token, mail };
}

/** Invites the address to Harbor Dental Group as the distributor's Owner, and accepts it as someone new. */
async function handedOver(email: string): Promise<{ cookie: string; userId: string; harborId: string }> {
  const harbor = await organizationNamed("Harbor Dental Group");
  const owner = await freshSession("distributor@example.com");
  expect((await people(owner, harbor.id, { intent: "invite", email, role: "technical_contact" })).status).toBe(302);
  const { token } = await invitationToken(email);
  const accepted = await post(
    invitationAction,
    `/invitations/${token}`,
    {
      intent: "create",
      firstName: "Hana",
      lastName: "Berg",
      new_password: "Hana-password-1",
      confirm_password: "Hana-password-1",
    },
    "",
    { token },
  );
  expect(accepted.status).toBe(302);
  const { user } = await memberByEmail(email);
  return { cookie: cookieFrom(accepted.headers.get("Set-Cookie")), userId: user.id, harborId: harbor.id };
}

describe("the access policy of a managed end customer", () => {
  const managedSubject = (role: (typeof ROLES)[number]): Subject => ({
    staff: false,
    emailVerified: true,
    member: { role, kind: "customer", organizationName: "Harbor Dental Group", managedBy: "SecureLine Resellers" },
  });
  const RESELLERS: Action[] = [
    "purchase",
    "licenses.update",
    "licenses.auto_renew",
    "billing.manage",
    "invoices.pay",
    "invoices.correct",
  ];

  it("refuses what the reseller does to every role, naming the reseller", () => {
    for (const role of ROLES) {
      for (const action of RESELLERS) expect(refusal(managedSubject(role), action)).toBe(MANAGED);
    }
  });

  it("leaves what the people do with what they hold to their roles", () => {
    expect(refusal(managedSubject("technical_contact"), "licenses.download")).toBeNull();
    expect(refusal(managedSubject("technical_contact"), "hubs.deploy")).toBeNull();
    expect(refusal(managedSubject("technical_contact"), "trials.start")).toBeNull();
    expect(refusal(managedSubject("viewer"), "licenses.download")).toMatch(
      /^Your role in Harbor Dental Group is Viewer/,
    );
    expect(refusal(managedSubject("technical_contact"), "customers.read")).toBe(
      "End customers are only for GateKeeper distributors.",
    );
  });

  it("lets a distributor's Owner and Billing admin, only, hand customers over", () => {
    expect(POLICY["customers.people"]).toMatchObject({ roles: ["owner", "billing_admin"], kinds: ["distributor"] });
  });
});

describe("a customer's people, from its page", { timeout: 120_000 }, () => {
  it("are invited by the distributor as Technical contact or Viewer, in a mail naming the end customer", async () => {
    const harbor = await organizationNamed("Harbor Dental Group");
    const owner = await freshSession("distributor@example.com");
    const page = await (await open(customerLoader, customerPath(harbor.id), owner, { customerId: harbor.id })).json();
    expect(page.mayManagePeople).toBe(true);
    expect(page.people).toMatchObject({ total: 0, members: [], invitations: [] });

    const billingAdmin = await people(owner, harbor.id, {
      intent: "invite",
      email: "ops@harbor.example",
      role: "billing_admin",
    });
    expect(billingAdmin.status).toBe(422);
    expect(await billingAdmin.json()).toMatchObject({
      fieldErrors: { role: CHOOSE_END_CUSTOMER_ROLE },
      values: { email: "ops@harbor.example", role: "billing_admin" },
    });

    expect(
      (await people(owner, harbor.id, { intent: "invite", email: "Ops@Harbor.example", role: "viewer" })).status,
    ).toBe(302);
    const { mail } = await invitationToken("ops@harbor.example");
    expect(mail?.subject).toBe("You are invited to Harbor Dental Group on the GateKeeper Portal");
    const after = await (await open(customerLoader, customerPath(harbor.id), owner, { customerId: harbor.id })).json();
    expect(after.people.invitations).toMatchObject([{ email: "ops@harbor.example", role: "viewer" }]);

    const revoked = await people(owner, harbor.id, { intent: "revoke", invitationId: after.people.invitations[0].id });
    expect(revoked.status).toBe(302);
  });

  it("join the end customer only, see what was bought for it, and are refused what costs money with the reseller's name", async () => {
    const { cookie, harborId } = await handedOver("hana@harbor.example");
    const joined = await db
      .select({ organizationId: memberships.organizationId, role: memberships.role })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(users.email, "hana@harbor.example"));
    expect(joined).toEqual([{ organizationId: harborId, role: "technical_contact" }]);

    const harborLicense = await licenseNamed("GK-SLR-2026-0101");
    const meridianLicense = await licenseNamed("GK-SLR-2026-0102");
    const list = await (await open(licensesLoader, "/licenses", cookie)).json();
    expect(list.buyRefused).toBe(MANAGED);
    expect(list.managedBy).toEqual({ organization: "Harbor Dental Group", reseller: "SecureLine Resellers" });
    expect(list.licenses).toHaveLength(1);
    expect(list.licenses[0]).toMatchObject({
      externalLicenseId: "GK-SLR-2026-0101",
      downloadUrl: `/licenses/${harborLicense.id}/download`,
      addUsersUrl: null,
      autoRenewUrl: null,
      renewUrl: null,
      payUrl: null,
      managedNote: MANAGED,
    });
    const download = await open(downloadLoader, `/licenses/${harborLicense.id}/download`, cookie, {
      licenseId: harborLicense.id,
    });
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(harborLicense.licenseCode);
    // Another customer's license of the same reseller is not theirs.
    expect(
      (
        await open(downloadLoader, `/licenses/${meridianLicense.id}/download`, cookie, {
          licenseId: meridianLicense.id,
        })
      ).status,
    ).toBe(404);

    const hubs = await (await open(hubsLoader, "/hubs", cookie)).json();
    expect(hubs.total).toBe(1);
    expect(await (await open(homeLoader, "/home", cookie)).json()).toMatchObject({
      activeLicenses: 1,
      expiredLicenses: 0,
      hubs: 1,
    });

    const subscriptionId = harborLicense.subscriptionId ?? "";
    const refusals: [string, Promise<Response>][] = [
      ["update", open(updateLoader, `/licenses/${subscriptionId}/update/product`, cookie, { subscriptionId })],
      ["auto-renew", open(autoRenewLoader, `/licenses/${subscriptionId}/auto-renew`, cookie, { subscriptionId })],
      ["card", open(newCardLoader, "/account/cards/new", cookie)],
      ["invoices", open(invoicesLoader, "/account/invoices", cookie)],
      ["plan", open(planLoader, "/store/subscribe/plan", cookie)],
    ];
    for (const [name, reached] of refusals) {
      const response = await reached;
      expect(response.status, name).toBe(403);
      expect((await response.json()).message, name).toBe(MANAGED);
    }
    expect((await (await open(storeLoader, "/store", cookie)).json()).subscribeRefused).toBe(MANAGED);

    const meridian = await organizationNamed("Meridian Law LLP");
    for (const response of [
      await open(customersLoader, "/customers", cookie),
      await open(customerLoader, customerPath(meridian.id), cookie, { customerId: meridian.id }),
    ]) {
      expect(response.status).toBe(403);
      expect((await response.json()).message).toBe("End customers are only for GateKeeper distributors.");
    }
  });

  it("make cloud Hubs from an unused cloud license bought for their organization, not from another customer's", async () => {
    const harbor = await organizationNamed("Harbor Dental Group");
    const meridian = await organizationNamed("Meridian Law LLP");
    const reseller = await organizationNamed("SecureLine Resellers");
    const made = (licenseeId: string) => ({
      id: randomUUID(),
      ownerId: reseller.id,
      licenseeId,
      externalLicenseId: `GK-HANDOVER-${randomUUID().slice(0, 8)}`,
      name: "Handed over",
      nodes: 5,
      planType: "advanced" as const,
      type: "recurring" as const,
      hasCloudSupport: true,
      validFrom: new Date(),
      validTo: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000),
      licenseCode: "{}",
    });
    const [forHarbor, forMeridian] = [made(harbor.id), made(meridian.id)];
    await db.insert(licenses).values([forHarbor, forMeridian]);
    expect(await selectableLicense(harbor.id, forHarbor.id)).not.toBeNull();
    expect(await selectableLicense(harbor.id, forMeridian.id)).toBeNull();
    const offered = await cloudHubLicensePage(harbor.id, "", 1, 50);
    expect(offered.licenses.map((license) => license.id)).toEqual([forHarbor.id]);
  });

  it("are removed by the distributor, which ends their session", async () => {
    const { cookie, userId, harborId } = await handedOver("lea@harbor.example");
    const owner = await freshSession("distributor@example.com");
    const removed = await people(owner, harborId, { intent: "remove", userId });
    expect(removed.status).toBe(302);
    expect(removed.headers.get("Location")).toBe(customerPath(harborId));
    expect(await db.select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
    expect((await open(licensesLoader, "/licenses", cookie)).status).toBe(302);
  });

  it("are the distributor's billing roles' to hand over, and only for its own customers", async () => {
    const harbor = await organizationNamed("Harbor Dental Group");
    const reseller = await organizationNamed("SecureLine Resellers");
    const hash = (await memberByEmail("distributor@example.com")).user.passwordHash;
    await createAccount("tech@secureline-people.example", hash, {
      role: "technical_contact",
      organizationId: reseller.id,
    });
    const tech = await freshSession("tech@secureline-people.example");
    const refused = await people(tech, harbor.id, { intent: "invite", email: "x@harbor.example", role: "viewer" });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toMatch(
      /^Your role in SecureLine Resellers is Technical contact, which cannot invite or remove the people of end customers\./,
    );
    expect(
      (await (await open(customerLoader, customerPath(harbor.id), tech, { customerId: harbor.id })).json())
        .mayManagePeople,
    ).toBe(false);

    // Another distributor's Owner: Harbor is not its customer.
    const other = await createAccount("owner@other-reseller.example", hash);
    await db
      .update(organizations)
      .set({ customerType: "distributor" })
      .where(eq(organizations.id, other.organizationId));
    const outsider = await freshSession("owner@other-reseller.example");
    const invite = await people(outsider, harbor.id, { intent: "invite", email: "y@harbor.example", role: "viewer" });
    expect(invite.status).toBe(404);
    const pending = await db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, harbor.id), eq(memberships.userId, other.userId)));
    expect(pending).toEqual([]);
  });
});
