import { asc, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as createAction, loader as customersLoader } from "~/routes/_portal.admin.customers";
import { createOrganizationForCustomer } from "~/server/accounts/organizations.server";
import {
  action as inviteAction,
  loader as organizationLoader,
} from "~/routes/_portal.admin.customers_.$organizationId";
import { action as invitationAction } from "~/routes/invitations.$token";
import { db } from "~/server/platform/database/db.server";
import { outboxPage } from "~/server/mail/index.server";
import { activity, licenses } from "~/server/platform/database/tables.server";
import { runJobs } from "../support/jobs";
import { memberByEmail } from "../support/members";
import { demoCookie } from "../support/sign-in";
import { formRequest, getRequest, respond } from "../support/requests";

/** /admin/customers: an administrator opens an organization, sees it whole, and invites its first Owner. */
describe("an organization sales onboards by hand", { timeout: 60_000 }, () => {
  it("is opened by an administrator, whose invitation makes its first Owner", async () => {
    const admin = await demoCookie("admin@example.com");
    const created = await respond(async () =>
      createAction({
        request: await formRequest(
          "/admin/customers",
          { name: "Hand Onboarded GmbH", customerType: "customer" },
          { cookie: admin },
        ),
        params: {},
        context: {},
      }),
    );
    expect(created.status).toBe(302);
    const organizationId = created.headers.get("Location")!.split("/").at(-1)!;
    const page = await (
      await respond(async () =>
        organizationLoader({
          request: getRequest(`/admin/customers/${organizationId}`, admin),
          params: { organizationId },
          context: {},
        }),
      )
    ).json();
    expect(page).toMatchObject({ organization: { name: "Hand Onboarded GmbH" }, memberTotal: 0, members: [] });

    const invited = await respond(async () =>
      inviteAction({
        request: await formRequest(
          `/admin/customers/${organizationId}`,
          { email: "boss@hand.example", role: "owner" },
          { cookie: admin },
        ),
        params: { organizationId },
        context: {},
      }),
    );
    expect(invited.status).toBe(302);
    await runJobs();
    const mail = (await outboxPage(1, 20)).messages.find((message) => message.to === "boss@hand.example")!;
    expect(mail.text).toContain("GateKeeper invited you to join Hand Onboarded GmbH on the GateKeeper Portal as Owner");
    const token = /\/invitations\/([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    await respond(async () =>
      invitationAction({
        request: await formRequest(`/invitations/${token}`, {
          intent: "create",
          firstName: "Bo",
          lastName: "Boss",
          new_password: "Boss-password-1",
          confirm_password: "Boss-password-1",
        }),
        params: { token },
        context: {},
      }),
    );
    expect(await memberByEmail("boss@hand.example")).toMatchObject({
      role: "owner",
      organization: { id: organizationId },
    });
    const log = await db
      .select()
      .from(activity)
      .where(eq(activity.organizationId, organizationId))
      .orderBy(asc(activity.id));
    expect(log.map((entry) => [entry.actorName, entry.action])).toEqual([
      ["GateKeeper", "organization.created"],
      ["GateKeeper", "member.invited"],
      ["Bo Boss", "member.joined"],
      // Accepting signed them in, from a browser new to them.
      ["Bo Boss", "member.signed_in_new_device"],
    ]);
  });

  it("shows an organization's members and licenses to administrators only", async () => {
    const organizationId = (await memberByEmail("customer@example.com")).organization.id;
    const open = async (cookie: string) =>
      respond(async () =>
        organizationLoader({
          request: getRequest(`/admin/customers/${organizationId}`, cookie),
          params: { organizationId },
          context: {},
        }),
      );
    const page = await (await open(await demoCookie("admin@example.com"))).json();
    expect(page.members.map((member: { email: string }) => member.email).sort()).toEqual([
      "customer@example.com",
      "technical@example.com",
    ]);
    expect(page.licenses.length).toBeGreaterThan(0);
    // Plans by their price-list names and statuses in words, never the provider's ids and codes.
    expect(page.subscriptions.length).toBeGreaterThan(0);
    for (const subscription of page.subscriptions) {
      expect(subscription.plan).toMatch(/^(Core|Advanced|Ultimate) \((Monthly|Annual) Billing\)/);
      expect(["Active", "Non-renewing", "Cancelled", "Starts later", "In trial", "Paused"]).toContain(
        subscription.status,
      );
    }
    expect((await open(await demoCookie("customer@example.com"))).status).toBe(403);
    const invite = await respond(async () =>
      inviteAction({
        request: await formRequest(
          `/admin/customers/${organizationId}`,
          { email: "x@y.example", role: "owner" },
          {
            cookie: await demoCookie("customer@example.com"),
          },
        ),
        params: { organizationId },
        context: {},
      }),
    );
    expect(invite.status).toBe(403);
  });

  it("shows a distributor's end customers with how many licenses each holds", async () => {
    const distributorId = (await memberByEmail("distributor@example.com")).organization.id;
    const response = await respond(async () =>
      organizationLoader({
        request: getRequest(`/admin/customers/${distributorId}`, await demoCookie("admin@example.com")),
        params: { organizationId: distributorId },
        context: {},
      }),
    );
    const { resellers } = await response.json();
    const held = await db
      .select({ id: licenses.licenseeId, licenses: count() })
      .from(licenses)
      .where(eq(licenses.ownerId, distributorId))
      .groupBy(licenses.licenseeId);
    const expected = resellers.customers.map((customer: { id: string }) => ({
      id: customer.id,
      licenses: held.find((row) => row.id === customer.id)?.licenses ?? 0,
    }));
    expect(resellers.customers.map(({ id, licenses }: { id: string; licenses: number }) => ({ id, licenses }))).toEqual(
      expected,
    );
    // The demo's three end customers hold a license each.
    expect(expected.filter((customer: { licenses: number }) => customer.licenses > 0).length).toBeGreaterThanOrEqual(3);
  });
});

describe("staff search on /admin/customers", { timeout: 60_000 }, () => {
  const search = async (cookie: string, query: Record<string, string>) =>
    respond(async () =>
      customersLoader({
        request: getRequest(`/admin/customers?${new URLSearchParams(query)}`, cookie),
        params: {},
        context: {},
      }),
    );
  const names = async (cookie: string, query: Record<string, string>) =>
    ((await (await search(cookie, query)).json()) as { organizations: { name: string }[] }).organizations.map(
      (organization) => organization.name,
    );

  it("finds organizations by the start of their name or of a member's email, case and accents folded, a page at a time", async () => {
    const admin = await demoCookie("admin@example.com");
    await createOrganizationForCustomer({ name: "Zoë Müller Praxis" });
    await createOrganizationForCustomer({ name: "Zoetrope Optics" });
    await createOrganizationForCustomer({ name: "Ærø Sundhed" });
    expect(await names(admin, { q: "ZOE MU" })).toEqual(["Zoë Müller Praxis"]);
    expect(await names(admin, { q: "zoe" })).toEqual(["Zoë Müller Praxis", "Zoetrope Optics"]);
    expect(await names(admin, { q: "aero" })).toEqual(["Ærø Sundhed"]);
    // A member's address: the technical contact's finds the customer's organization.
    expect(await names(admin, { q: "Technical@Exam" })).toEqual(["Northwind Clinics"]);
    expect(await names(admin, { q: "müller praxis" })).toEqual([]);

    for (let n = 0; n < 25; n += 1)
      await createOrganizationForCustomer({ name: `Paging Test ${String(n).padStart(2, "0")}` });
    const first = (await (await search(admin, { q: "paging test" })).json()) as {
      total: number;
      organizations: unknown[];
    };
    expect([first.total, first.organizations.length]).toEqual([25, 20]);
    expect(await names(admin, { q: "paging test", page: "2" })).toEqual([
      "Paging Test 20",
      "Paging Test 21",
      "Paging Test 22",
      "Paging Test 23",
      "Paging Test 24",
    ]);
    expect((await search(admin, { page: "0" })).status).toBe(404);
    expect((await search(await demoCookie("customer@example.com"), { q: "zoe" })).status).toBe(403);
  });
});
