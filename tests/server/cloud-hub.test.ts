import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { runJobs } from "../support/jobs";
import { DEPLOYMENT_FAILURES } from "~/domain/cloud-hub";
import { db } from "~/server/db.server";
import { findDraft } from "~/server/drafts.server";
import { hubFaults } from "~/server/hubs/index.server";
import { redeemSignInLink } from "~/server/hubs/simulator/simulator.server";
import { enqueueJob, findJobByKey, findOwnedJob, JobRefused, retryJob } from "~/server/jobs/runner.server";
import { cloudHubDeployment, type DeploymentInput } from "~/server/jobs/cloud-hub.server";
import { cloudHubLicensePage, selectableLicense } from "~/server/cloud-hub-licenses.server";
import { licenseRow } from "~/server/license-files.server";
import { cloudHubWizard, deploy, deploymentKey, hubSignInLink } from "~/server/wizards/cloud-hub.server";
import { openSecret, sealSecret } from "~/server/wizards/sealed.server";
import { memberByEmail } from "../support/members";
import { action as progressAction, loader as progressLoader } from "~/routes/_portal.hubs.deployments.$jobId";
import { action as loginAction } from "~/routes/login";
import { hubAdmins, hubInstallations, hubLicenses, hubTenants, jobs, licenses } from "~db/schema";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

const customer = () => memberByEmail("customer@example.com");
const PASSWORD = "Secret123";

let demoLicenseId = "";

beforeEach(() => {
  hubFaults.clear();
  const member = customer();
  cloudHubWizard.clear(member);
  // Each test runs its own deployments only.
  db.delete(jobs).run();
  // The demo's one cloud license, free again for each test.
  db.update(licenses)
    .set({ isUsed: false, hubJobId: null })
    .where(eq(licenses.externalLicenseId, "GK-NWC-2026-0002"))
    .run();
  db.delete(hubLicenses).run();
  demoLicenseId = cloudHubLicensePage(member.organization.id, "", 1, 5).licenses[0].id;
});

/** The wizard filled in as a customer would, with the demo's cloud license, up to its review. */
function fillWizard(subdomain: string) {
  cloudHubWizard.save(customer(), {
    subdomain,
    region: "EU",
    licenseId: demoLicenseId,
    administrator: {
      userName: "ada-admin",
      firstName: "Ada",
      lastName: "Lovelace",
      phoneNumber: "",
      email: "ada@example.com",
    },
    sealedPassword: sealSecret(PASSWORD),
    completed: ["url", "license", "admin"],
  });
}

/** The wizard filled in, then confirmed: the deployment's job. */
function confirmDeployment(subdomain: string) {
  const member = customer();
  fillWizard(subdomain);
  const key = deploymentKey(member);
  expect(key).not.toBeNull();
  const placement = deploy(member, key!);
  if (!("placed" in placement)) throw new Error("the deployment was not placed");
  return placement.placed.id;
}

const job = (id: string) => findOwnedJob(customer().organization.id, id)!;
const tenantsNamed = (subdomain: string) =>
  db.select().from(hubTenants).where(eq(hubTenants.subdomain, subdomain)).all();

describe("deploying a cloud Hub", () => {
  it("creates, connects and starts the Hub, sets up its administrator, uploads the license and lists the Hub", async () => {
    const member = customer();
    const id = confirmDeployment("ada-clinic");
    const draftId = cloudHubWizard.read(member).id;
    await runJobs();
    expect(job(id)).toMatchObject({ status: "succeeded", error: null });

    const [tenant] = tenantsNamed("ada-clinic");
    expect(tenant).toMatchObject({ customerId: member.organization.id, region: 2 });
    expect(tenant.registeredAt).not.toBeNull();
    expect(db.select().from(hubAdmins).where(eq(hubAdmins.hubId, tenant.id)).get()).toMatchObject({
      userName: "ada-admin",
    });
    expect(db.select().from(hubLicenses).where(eq(hubLicenses.hubId, tenant.id)).get()).toMatchObject({
      licenseId: "GK-NWC-2026-0002",
    });
    expect(db.select().from(hubInstallations).where(eq(hubInstallations.id, tenant.id)).get()).toMatchObject({
      ownerId: member.organization.id,
      type: "cloud",
      url: tenant.url,
      maxUsers: 25,
    });
    expect(db.select().from(licenses).where(eq(licenses.id, demoLicenseId)).get()?.isUsed).toBe(true);
    expect(selectableLicense(member.organization.id, demoLicenseId)).toBeNull();
    // The typed password is gone from the job, and the draft that held it sealed is cleared.
    expect(job(id).input).not.toHaveProperty("adminPassword");
    expect(JSON.stringify(db.select().from(jobs).where(eq(jobs.id, id)).get())).not.toContain(PASSWORD);
    expect(findDraft(member, "cloud-hub")).toBeNull();
    expect(draftId).not.toBeNull();

    // 'Go to Hub': a link that signs the administrator in once.
    const link = await hubSignInLink(member.organization.id, tenant.id);
    expect(link).toMatch(/^https:\/\/ada-clinic\.hub\.gatekeeper\.example\/sign-in\?ticket=/);
    expect(link).not.toContain(PASSWORD);
    expect(redeemSignInLink(db, link!)).toBe("ada-admin");
    expect(redeemSignInLink(db, link!)).toBeNull();
    expect(await hubSignInLink(memberByEmail("distributor@example.com").organization.id, tenant.id)).toBeNull();
  });

  it("places one job however often the confirmation is posted, and refuses a key the draft no longer matches", () => {
    const member = customer();
    const id = confirmDeployment("twice-clinic");
    const again = deploy(member, deploymentKey(member)!);
    expect("placed" in again && again.placed.id).toBe(id);
    expect(deploy(member, "cloud-hub:nope:digest")).toMatchObject({ placed: { id } });
  });

  it("refuses a stale confirmation before any Hub exists", () => {
    const member = customer();
    cloudHubWizard.save(member, {
      subdomain: "stale-clinic",
      licenseId: demoLicenseId,
      completed: ["url", "license"],
    });
    expect(deploy(member, "cloud-hub:x:y")).toEqual({ stale: true });
  });

  it("after a failure once the tenant exists, resumes there and never creates a second tenant", async () => {
    hubFaults.inject("registerTenant", { message: "The Hub service refused the request." });
    const id = confirmDeployment("resume-clinic");
    await runJobs();
    expect(job(id)).toMatchObject({
      status: "failed",
      error: { title: DEPLOYMENT_FAILURES.register.title, message: DEPLOYMENT_FAILURES.register.message },
    });
    expect(tenantsNamed("resume-clinic")).toHaveLength(1);

    expect(retryJob(customer().organization.id, id)).toBe(true);
    await runJobs();
    expect(job(id).status).toBe("succeeded");
    expect(tenantsNamed("resume-clinic")).toHaveLength(1);
    expect(
      db
        .select()
        .from(hubTenants)
        .where(eq(hubTenants.customerId, customer().organization.id))
        .all()
        .filter((row) => row.subdomain.startsWith("resume")),
    ).toHaveLength(1);
  });

  it("offers Try again 30 s after registering was interrupted, and refuses it before on the server too", async () => {
    hubFaults.inject("registerTenant", { message: "The Hub service refused the request." });
    const id = confirmDeployment("wait-clinic");
    await runJobs();
    expect(job(id)).toMatchObject({ status: "failed", error: { title: DEPLOYMENT_FAILURES.register.title } });
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
    expect(job(id).status).toBe("failed");

    // 30 seconds later (the job stopped that long ago) the retry opens and resumes the same deployment.
    db.update(jobs)
      .set({ updatedAt: new Date(Date.now() - 30_001) })
      .where(eq(jobs.id, id))
      .run();
    expect((await page()).retryInSeconds).toBe(0);
    expect((await retry()).status).toBe(302);
    expect(job(id).status).toBe("queued");
    await runJobs();
    expect(job(id).status).toBe("succeeded");
    expect(tenantsNamed("wait-clinic")).toHaveLength(1);
  });

  it("when the creation's answer is lost, finds the tenant it made instead of making another", async () => {
    hubFaults.inject("createTenant", { mode: "lose" });
    const id = confirmDeployment("lost-clinic");
    await runJobs();
    expect(job(id).status).toBe("succeeded");
    expect(tenantsNamed("lost-clinic")).toHaveLength(1);
  });

  it("waits for a Hub that is slow to become ready with backoff, then says it did not finish; a retry finishes", async () => {
    hubFaults.inject("createTenant", { mode: "not_ready" });
    hubFaults.inject("syncTenant", { mode: "not_ready", times: "always" });
    const id = confirmDeployment("slow-clinic");
    await runJobs();
    expect(job(id)).toMatchObject({ status: "failed", error: { title: DEPLOYMENT_FAILURES.notReady.title } });
    expect(job(id).attempts).toBe(5);
    hubFaults.clear();
    retryJob(customer().organization.id, id);
    await runJobs();
    expect(job(id).status).toBe("succeeded");
  });

  it("shows each later failure's screen, and a retry finishes the deployment once", async () => {
    const cases = [
      { call: "createTenant", subdomain: "fail-create", screen: DEPLOYMENT_FAILURES.create },
      { call: "setUpAdmin", subdomain: "fail-admin", screen: DEPLOYMENT_FAILURES.admin },
      { call: "uploadLicense", subdomain: "fail-upload", screen: DEPLOYMENT_FAILURES.upload },
    ] as const;
    for (const { call, subdomain, screen } of cases) {
      db.update(licenses).set({ isUsed: false, hubJobId: null }).where(eq(licenses.id, demoLicenseId)).run();
      db.delete(hubLicenses).run();
      hubFaults.inject(call, { message: "Injected." });
      const id = confirmDeployment(subdomain);
      await runJobs();
      expect(job(id), call).toMatchObject({
        status: "failed",
        error: { title: screen.title, message: screen.message },
      });
      retryJob(customer().organization.id, id);
      await runJobs();
      expect(job(id).status, call).toBe("succeeded");
      expect(tenantsNamed(subdomain)).toHaveLength(1);
    }
  });

  it("holds the license from the moment the deployment is queued: a second deployment of it is refused while the first runs", async () => {
    const member = customer();
    const first = confirmDeployment("first-of-two");
    expect(job(first).status).toBe("queued");
    expect(selectableLicense(member.organization.id, demoLicenseId)).toBeNull();
    expect(cloudHubLicensePage(member.organization.id, "", 1, 5).licenses.map((license) => license.id)).not.toContain(
      demoLicenseId,
    );
    // The wizard was closed (its draft cleared) and filled in again with the same license.
    cloudHubWizard.clear(member);
    fillWizard("second-of-two");
    expect(deploy(member, `cloud-hub:${cloudHubWizard.read(member).id}:any`)).toEqual({
      refused: "Unable to verify license.",
    });
    await runJobs();
    expect(job(first).status).toBe("succeeded");
    expect(tenantsNamed("second-of-two")).toHaveLength(0);
    expect(db.select().from(jobs).all()).toHaveLength(1);
  });

  it("refuses the second of two deployments of one license queued at the same moment: the queueing takes the license", () => {
    const member = customer();
    const first = confirmDeployment("raced-one");
    // Another tab's confirmation that passed every page check before the first was queued.
    const second = { ...job(first).input, draftId: "another-draft", subdomain: "raced-two" } as DeploymentInput;
    expect(() =>
      enqueueJob(cloudHubDeployment, { ownerId: member.organization.id, idempotencyKey: "raced-two", input: second }),
    ).toThrow(JobRefused);
    expect(findJobByKey(member.organization.id, "raced-two")).toBeNull();
    expect(db.select().from(licenses).where(eq(licenses.id, demoLicenseId)).get()?.hubJobId).toBe(first);
  });

  it("gives the license back when the deployment fails before its Hub exists, and takes it again on Try again", async () => {
    const member = customer();
    hubFaults.inject("createTenant", { message: "Refused." });
    const id = confirmDeployment("given-back");
    await runJobs();
    expect(job(id).status).toBe("failed");
    expect(selectableLicense(member.organization.id, demoLicenseId)).not.toBeNull();
    retryJob(member.organization.id, id);
    await runJobs();
    expect(job(id).status).toBe("succeeded");
    // Once its Hub exists, a failed deployment keeps the license for that Hub.
    db.update(licenses).set({ isUsed: false, hubJobId: null }).where(eq(licenses.id, demoLicenseId)).run();
    hubFaults.inject("uploadLicense", { message: "Refused." });
    const kept = confirmDeployment("kept-license");
    await runJobs();
    expect(job(kept).status).toBe("failed");
    expect(selectableLicense(member.organization.id, demoLicenseId)).toBeNull();
  });

  it("keeps the Hub administrator's token sealed on the Hub installation only, never in the job", async () => {
    const member = customer();
    const id = confirmDeployment("token-clinic");
    await runJobs();
    const row = db.select().from(jobs).where(eq(jobs.id, id)).get();
    expect(row?.status).toBe("succeeded");
    expect(row?.input).not.toHaveProperty("adminToken");
    expect(JSON.stringify([row?.steps, row?.result, row?.input])).not.toMatch(/v1\.|eyJ/);
    const [tenant] = tenantsNamed("token-clinic");
    const hub = db.select().from(hubInstallations).where(eq(hubInstallations.id, tenant.id)).get();
    expect(hub?.adminToken).toMatch(/^v1\./);
    const admin = db.select().from(hubAdmins).where(eq(hubAdmins.hubId, tenant.id)).get();
    // It opens to the token the Hub holds for its administrator now.
    const token = openSecret(hub?.adminToken ?? "") ?? "";
    expect(createHash("sha256").update(token).digest("base64url")).toBe(admin?.tokenHash);
    expect(member.organization.id).toBe(hub?.ownerId);
  });

  it("never stores the typed password in plaintext in the draft", () => {
    const member = customer();
    confirmDeployment("sealed-clinic");
    const stored = JSON.stringify(findDraft(member, "cloud-hub"));
    expect(stored).not.toContain(PASSWORD);
    expect(openSecret(cloudHubWizard.read(member).data.sealedPassword!)).toBe(PASSWORD);
  });
});

describe("the licenses a cloud Hub can be made from", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const now = new Date();

  it("are unused, with cloud support, not expired more than a day ago, newest first, searchable and paged in SQL", () => {
    const owner = memberByEmail("distributor@example.com").organization.id;
    const add = (
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
      db.insert(licenses)
        .values(
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
        )
        .run();
    };
    add("old", { validFrom: -50 });
    add("new", { validFrom: -1 });
    add("used", { isUsed: true });
    add("onprem", { hasCloudSupport: false });
    add("expired", { validTo: -2 });
    add("just-expired", { validTo: -0.5, name: "Contoso 100%_off" });
    for (let n = 0; n < 5; n += 1) add(`bulk-${n}`, { validFrom: -100 - n, name: "Bulk Org" });

    const page = (search: string, number = 1) => cloudHubLicensePage(owner, search, number, 5, now);
    expect(page("picker")).toMatchObject({ total: 2 });
    expect(page("picker").licenses.map((license) => license.externalLicenseId)).toEqual(["GK-PICK-new", "GK-PICK-old"]);
    expect(page("").total).toBe(8);
    expect(page("", 2).licenses.map((license) => license.externalLicenseId)).toEqual([
      "GK-PICK-bulk-2",
      "GK-PICK-bulk-3",
      "GK-PICK-bulk-4",
    ]);
    // Search by license id, in any case; % and _ are searched for as themselves.
    expect(page("gk-pick-OLD").licenses.map((license) => license.externalLicenseId)).toEqual(["GK-PICK-old"]);
    expect(page("100%_").licenses.map((license) => license.externalLicenseId)).toEqual(["GK-PICK-just-expired"]);
    expect(page("1%0").total).toBe(0);
  });
});
