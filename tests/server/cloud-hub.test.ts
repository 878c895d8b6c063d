import { createHash, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { runJobs } from "../support/jobs";
import { DEPLOYMENT_FAILURES } from "~/domain/cloud-hub";
import {
  hubAdmins,
  hubInstallations,
  hubLicenses,
  hubTenants,
  jobs,
  licenses,
  organizations,
} from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { findDraft } from "~/server/platform/wizards/drafts.server";
import { hubFaults } from "~/server/hubs/index.server";
import { redeemSignInLink } from "~/server/hubs/simulator/simulator.server";
import { enqueueJob, findJobByKey, findOwnedJob, JobRefused, retryJob } from "~/server/platform/jobs/runner.server";
import { cloudHubDeployment, type DeploymentInput } from "~/server/cloud-hubs/cloud-hub-job.server";
import { cloudHubLicensePage, selectableLicense } from "~/server/cloud-hubs/cloud-hub-licenses.server";
import { licenseRow } from "~/server/subscriptions/license-issuing.server";
import { cloudHubWizard, deploy, deploymentKey, hubSignInLink } from "~/server/cloud-hubs/cloud-hub-wizard.server";
import { openSecret, sealSecret } from "~/server/platform/wizards/sealed.server";
import { HUB_ADMINISTRATOR } from "../support/drafts";
import { memberByEmail } from "../support/members";
import { action as progressAction, loader as progressLoader } from "~/routes/_portal.hubs.deployments.$jobId";
import { action as loginAction } from "~/routes/login";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

const customer = () => memberByEmail("customer@example.com");
const PASSWORD = "Secret123";

let demoLicenseId = "";

beforeEach(async () => {
  await hubFaults.clear();
  const member = await customer();
  await cloudHubWizard.clear(member);
  // Each test runs its own deployments only.
  await db.delete(jobs);
  // The demo's one cloud license, free again for each test.
  await db
    .update(licenses)
    .set({ isUsed: false, hubJobId: null, licenseeId: null })
    .where(eq(licenses.externalLicenseId, "GK-NWC-2026-0002"));
  await db.delete(hubLicenses);
  demoLicenseId = (await cloudHubLicensePage(member.organization.id, "", 1, 5)).licenses[0].id;
});

/** The wizard filled in as a customer would, with the demo's cloud license, up to its review. */
async function fillWizard(subdomain: string) {
  await cloudHubWizard.save(await customer(), {
    subdomain,
    region: "EU",
    licenseId: demoLicenseId,
    administrator: HUB_ADMINISTRATOR,
    sealedPassword: sealSecret(PASSWORD),
    completed: ["url", "license", "admin"],
  });
}

/** The wizard filled in, then confirmed: the deployment's job. */
async function confirmDeployment(subdomain: string) {
  const member = await customer();
  await fillWizard(subdomain);
  const key = await deploymentKey(member);
  expect(key).not.toBeNull();
  const placement = await deploy(member, key!);
  if (!("placed" in placement)) throw new Error("the deployment was not placed");
  return placement.placed.id;
}

const job = async (id: string) => (await findOwnedJob((await customer()).organization.id, id))!;
const tenantsNamed = (subdomain: string) => db.select().from(hubTenants).where(eq(hubTenants.subdomain, subdomain));
/** The one row a query finds (undefined when none). */
const one = async <Row>(rows: Promise<Row[]>) => (await rows)[0];

describe("deploying a cloud Hub", () => {
  it("creates, connects and starts the Hub, sets up its administrator, uploads the license and lists the Hub", async () => {
    const member = await customer();
    const id = await confirmDeployment("ada-clinic");
    const draftId = (await cloudHubWizard.read(member)).id;
    await runJobs();
    expect(await job(id)).toMatchObject({ status: "succeeded", error: null });

    const [tenant] = await tenantsNamed("ada-clinic");
    expect(tenant).toMatchObject({ customerId: member.organization.id, region: 2 });
    expect(tenant.registeredAt).not.toBeNull();
    expect(await one(db.select().from(hubAdmins).where(eq(hubAdmins.hubId, tenant.id)))).toMatchObject({
      userName: "ada-admin",
    });
    expect(await one(db.select().from(hubLicenses).where(eq(hubLicenses.hubId, tenant.id)))).toMatchObject({
      licenseId: "GK-NWC-2026-0002",
    });
    expect(await one(db.select().from(hubInstallations).where(eq(hubInstallations.id, tenant.id)))).toMatchObject({
      ownerId: member.organization.id,
      type: "cloud",
      url: tenant.url,
      maxUsers: 25,
    });
    expect((await one(db.select().from(licenses).where(eq(licenses.id, demoLicenseId))))?.isUsed).toBe(true);
    expect(await selectableLicense(member.organization.id, demoLicenseId)).toBeNull();
    // The typed password is gone from the job, and the draft that held it sealed is cleared.
    expect((await job(id)).input).not.toHaveProperty("adminPassword");
    expect(JSON.stringify(await one(db.select().from(jobs).where(eq(jobs.id, id))))).not.toContain(PASSWORD);
    expect(await findDraft(member, "cloud-hub")).toBeNull();
    expect(draftId).not.toBeNull();

    // 'Go to Hub': a link that signs the administrator in once.
    const link = await hubSignInLink(member.organization.id, tenant.id);
    expect(link).toMatch(/^https:\/\/ada-clinic\.hub\.gatekeeper\.example\/sign-in\?ticket=/);
    expect(link).not.toContain(PASSWORD);
    expect(await redeemSignInLink(db, link!)).toBe("ada-admin");
    expect(await redeemSignInLink(db, link!)).toBeNull();
    const distributor = await memberByEmail("distributor@example.com");
    expect(await hubSignInLink(distributor.organization.id, tenant.id)).toBeNull();
  });

  it("makes the Hub of a license bought for an end customer that customer's, as the license is", async () => {
    const member = await customer();
    const endCustomer = randomUUID();
    await db
      .insert(organizations)
      .values({ id: endCustomer, name: "Hub Licensee Ltd", managedBy: member.organization.id });
    await db.update(licenses).set({ licenseeId: endCustomer }).where(eq(licenses.id, demoLicenseId));
    await confirmDeployment("licensee-clinic");
    await runJobs();
    const [tenant] = await tenantsNamed("licensee-clinic");
    expect(await one(db.select().from(hubInstallations).where(eq(hubInstallations.id, tenant.id)))).toMatchObject({
      ownerId: member.organization.id,
      licenseeId: endCustomer,
    });
  });

  it("places one job however often the confirmation is posted, and refuses a key the draft no longer matches", async () => {
    const member = await customer();
    const id = await confirmDeployment("twice-clinic");
    const again = await deploy(member, (await deploymentKey(member))!);
    expect("placed" in again && again.placed.id).toBe(id);
    expect(await deploy(member, "cloud-hub:nope:digest")).toMatchObject({ placed: { id } });
  });

  it("refuses a stale confirmation before any Hub exists", async () => {
    const member = await customer();
    await cloudHubWizard.save(member, {
      subdomain: "stale-clinic",
      licenseId: demoLicenseId,
      completed: ["url", "license"],
    });
    expect(await deploy(member, "cloud-hub:x:y")).toEqual({ stale: true });
  });

  it("after a failure once the tenant exists, resumes there and never creates a second tenant", async () => {
    await hubFaults.inject("registerTenant", { message: "The Hub service refused the request." });
    const id = await confirmDeployment("resume-clinic");
    await runJobs();
    expect(await job(id)).toMatchObject({
      status: "failed",
      error: { title: DEPLOYMENT_FAILURES.register.title, message: DEPLOYMENT_FAILURES.register.message },
    });
    expect(await tenantsNamed("resume-clinic")).toHaveLength(1);

    expect(await retryJob((await customer()).organization.id, id)).toBe(true);
    await runJobs();
    expect((await job(id)).status).toBe("succeeded");
    expect(await tenantsNamed("resume-clinic")).toHaveLength(1);
    const customerTenants = await db
      .select()
      .from(hubTenants)
      .where(eq(hubTenants.customerId, (await customer()).organization.id));
    expect(customerTenants.filter((row) => row.subdomain.startsWith("resume"))).toHaveLength(1);
  });

  it("offers Try again 30 s after registering was interrupted, and refuses it before on the server too", async () => {
    await hubFaults.inject("registerTenant", { message: "The Hub service refused the request." });
    const id = await confirmDeployment("wait-clinic");
    await runJobs();
    expect(await job(id)).toMatchObject({ status: "failed", error: { title: DEPLOYMENT_FAILURES.register.title } });
    const login = await formRequest("/login", { email: "customer@example.com", password: "GateKeeper-demo-1" });
    const cookie = cookieFrom(
      (await respond(() => loginAction({ request: login, params: {}, context: {} }))).headers.get("Set-Cookie"),
    );
    const path = `/hubs/deployments/${id}`;
    const page = async () =>
      (
        await respond(() => progressLoader({ request: getRequest(path, cookie), params: { jobId: id }, context: {} }))
      ).json();
    const retry = async () =>
      respond(async () =>
        progressAction({
          request: await formRequest(path, { intent: "retry" }, { cookie }),
          params: { jobId: id },
          context: {},
        }),
      );

    const waiting = await page();
    expect(waiting.retryInSeconds).toBeGreaterThan(25);
    expect(waiting.retryInSeconds).toBeLessThanOrEqual(30);
    expect((await retry()).status).toBe(302);
    expect((await job(id)).status).toBe("failed");

    // 30 seconds later (the job stopped that long ago) the retry opens and resumes the same deployment.
    await db
      .update(jobs)
      .set({ updatedAt: new Date(Date.now() - 30_001) })
      .where(eq(jobs.id, id));
    expect((await page()).retryInSeconds).toBe(0);
    expect((await retry()).status).toBe(302);
    expect((await job(id)).status).toBe("queued");
    await runJobs();
    expect((await job(id)).status).toBe("succeeded");
    expect(await tenantsNamed("wait-clinic")).toHaveLength(1);
  });

  it("when the creation's answer is lost, finds the tenant it made instead of making another", async () => {
    await hubFaults.inject("createTenant", { mode: "lose" });
    const id = await confirmDeployment("lost-clinic");
    await runJobs();
    expect((await job(id)).status).toBe("succeeded");
    expect(await tenantsNamed("lost-clinic")).toHaveLength(1);
  });

  it("waits for a Hub that is slow to become ready with backoff, then says it did not finish; a retry finishes", async () => {
    await hubFaults.inject("createTenant", { mode: "not_ready" });
    await hubFaults.inject("syncTenant", { mode: "not_ready", times: "always" });
    const id = await confirmDeployment("slow-clinic");
    await runJobs();
    expect(await job(id)).toMatchObject({ status: "failed", error: { title: DEPLOYMENT_FAILURES.notReady.title } });
    expect((await job(id)).attempts).toBe(5);
    await hubFaults.clear();
    await retryJob((await customer()).organization.id, id);
    await runJobs();
    expect((await job(id)).status).toBe("succeeded");
  });

  it("shows each later failure's screen, and a retry finishes the deployment once", async () => {
    const cases = [
      { call: "createTenant", subdomain: "fail-create", screen: DEPLOYMENT_FAILURES.create },
      { call: "setUpAdmin", subdomain: "fail-admin", screen: DEPLOYMENT_FAILURES.admin },
      { call: "uploadLicense", subdomain: "fail-upload", screen: DEPLOYMENT_FAILURES.upload },
    ] as const;
    for (const { call, subdomain, screen } of cases) {
      await db.update(licenses).set({ isUsed: false, hubJobId: null }).where(eq(licenses.id, demoLicenseId));
      await db.delete(hubLicenses);
      await hubFaults.inject(call, { message: "Injected." });
      const id = await confirmDeployment(subdomain);
      await runJobs();
      expect(await job(id), call).toMatchObject({
        status: "failed",
        error: { title: screen.title, message: screen.message },
      });
      await retryJob((await customer()).organization.id, id);
      await runJobs();
      expect((await job(id)).status, call).toBe("succeeded");
      expect(await tenantsNamed(subdomain)).toHaveLength(1);
    }
  });

  it("holds the license from the moment the deployment is queued: a second deployment of it is refused while the first runs", async () => {
    const member = await customer();
    const first = await confirmDeployment("first-of-two");
    expect((await job(first)).status).toBe("queued");
    expect(await selectableLicense(member.organization.id, demoLicenseId)).toBeNull();
    const listed = (await cloudHubLicensePage(member.organization.id, "", 1, 5)).licenses;
    expect(listed.map((license) => license.id)).not.toContain(demoLicenseId);
    // The wizard was closed (its draft cleared) and filled in again with the same license.
    await cloudHubWizard.clear(member);
    await fillWizard("second-of-two");
    expect(await deploy(member, `cloud-hub:${(await cloudHubWizard.read(member)).id}:any`)).toEqual({
      refused: "Unable to verify license.",
    });
    await runJobs();
    expect((await job(first)).status).toBe("succeeded");
    expect(await tenantsNamed("second-of-two")).toHaveLength(0);
    expect(await db.select().from(jobs)).toHaveLength(1);
  });

  it("refuses the second of two deployments of one license queued at the same moment: the queueing takes the license", async () => {
    const member = await customer();
    const first = await confirmDeployment("raced-one");
    // Another tab's confirmation that passed every page check before the first was queued.
    const second = { ...(await job(first)).input, draftId: "another-draft", subdomain: "raced-two" } as DeploymentInput;
    await expect(
      enqueueJob(cloudHubDeployment, { ownerId: member.organization.id, idempotencyKey: "raced-two", input: second }),
    ).rejects.toThrow(JobRefused);
    expect(await findJobByKey(member.organization.id, "raced-two")).toBeNull();
    expect((await one(db.select().from(licenses).where(eq(licenses.id, demoLicenseId))))?.hubJobId).toBe(first);
  });

  it("gives the license back when the deployment fails before its Hub exists, and takes it again on Try again", async () => {
    const member = await customer();
    await hubFaults.inject("createTenant", { message: "Refused." });
    const id = await confirmDeployment("given-back");
    await runJobs();
    expect((await job(id)).status).toBe("failed");
    expect(await selectableLicense(member.organization.id, demoLicenseId)).not.toBeNull();
    await retryJob(member.organization.id, id);
    await runJobs();
    expect((await job(id)).status).toBe("succeeded");
    // Once its Hub exists, a failed deployment keeps the license for that Hub.
    await db.update(licenses).set({ isUsed: false, hubJobId: null }).where(eq(licenses.id, demoLicenseId));
    await hubFaults.inject("uploadLicense", { message: "Refused." });
    const kept = await confirmDeployment("kept-license");
    await runJobs();
    expect((await job(kept)).status).toBe("failed");
    expect(await selectableLicense(member.organization.id, demoLicenseId)).toBeNull();
  });

  it("keeps the Hub administrator's token sealed on the Hub installation only, never in the job", async () => {
    const member = await customer();
    const id = await confirmDeployment("token-clinic");
    await runJobs();
    const row = await one(db.select().from(jobs).where(eq(jobs.id, id)));
    expect(row?.status).toBe("succeeded");
    expect(row?.input).not.toHaveProperty("adminToken");
    expect(JSON.stringify([row?.steps, row?.result, row?.input])).not.toMatch(/v1\.|eyJ/);
    const [tenant] = await tenantsNamed("token-clinic");
    const hub = await one(db.select().from(hubInstallations).where(eq(hubInstallations.id, tenant.id)));
    expect(hub?.adminToken).toMatch(/^v1\./);
    const admin = await one(db.select().from(hubAdmins).where(eq(hubAdmins.hubId, tenant.id)));
    // It opens to the token the Hub holds for its administrator now.
    const token = openSecret(hub?.adminToken ?? "") ?? "";
    expect(createHash("sha256").update(token).digest("base64url")).toBe(admin?.tokenHash);
    expect(member.organization.id).toBe(hub?.ownerId);
  });

  it("never stores the typed password in plaintext in the draft", async () => {
    const member = await customer();
    await confirmDeployment("sealed-clinic");
    const stored = JSON.stringify(await findDraft(member, "cloud-hub"));
    expect(stored).not.toContain(PASSWORD);
    expect(openSecret((await cloudHubWizard.read(member)).data.sealedPassword!)).toBe(PASSWORD);
  });
});

describe("the licenses a cloud Hub can be made from", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const now = new Date();

  it("are unused, with cloud support, not expired more than a day ago, newest first, searchable and paged in SQL", async () => {
    const owner = (await memberByEmail("distributor@example.com")).organization.id;
    const add = async (
      id: string,
      changes: {
        isUsed?: boolean;
        hasCloudSupport?: boolean;
        validFrom?: number;
        validTo?: number;
        name?: string;
      } = {},
    ) => {
      const { isUsed = false, hasCloudSupport = true, validFrom = -10, validTo = 100, name = `Picker ${id}` } = changes;
      await db.insert(licenses).values(
        licenseRow(
          owner,
          {
            externalLicenseId: `GK-PICK-${id}`,
            name,
            nodes: 5,
            planType: "core",
            type: "recurring",
            hasCloudSupport,
            validFrom: new Date(now.getTime() + validFrom * DAY),
            validTo: new Date(now.getTime() + validTo * DAY),
          },
          { isUsed },
        ),
      );
    };
    await add("old", { validFrom: -50 });
    await add("new", { validFrom: -1 });
    await add("used", { isUsed: true });
    await add("onprem", { hasCloudSupport: false });
    await add("expired", { validTo: -2 });
    await add("just-expired", { validTo: -0.5, name: "Contoso 100%_off" });
    for (let n = 0; n < 5; n += 1) await add(`bulk-${n}`, { validFrom: -100 - n, name: "Bulk Org" });

    const page = (search: string, number = 1) => cloudHubLicensePage(owner, search, number, 5, now);
    const ids = async (search: string, number = 1) =>
      (await page(search, number)).licenses.map((license) => license.externalLicenseId);
    expect(await page("picker")).toMatchObject({ total: 2 });
    expect(await ids("picker")).toEqual(["GK-PICK-new", "GK-PICK-old"]);
    expect((await page("")).total).toBe(8);
    expect(await ids("", 2)).toEqual(["GK-PICK-bulk-2", "GK-PICK-bulk-3", "GK-PICK-bulk-4"]);
    // Search by license id, in any case; % and _ are searched for as themselves.
    expect(await ids("gk-pick-OLD")).toEqual(["GK-PICK-old"]);
    expect(await ids("100%_")).toEqual(["GK-PICK-just-expired"]);
    expect((await page("1%0")).total).toBe(0);
  });
});
