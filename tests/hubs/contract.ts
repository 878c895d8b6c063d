import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SUBDOMAIN_MESSAGES } from "~/domain/hub-subdomain";
import { db } from "~/server/platform/database/db.server";
import type { HubAdministrator, HubService, LicenseVerifier, VerifiedLicenseTerms } from "~/server/hubs/port.server";
import { clearHubFaults, injectHubFault } from "~/server/hubs/simulator/faults.server";
import { createHubSimulator, redeemSignInLink } from "~/server/hubs/simulator/simulator.server";

/**
 * The Hub service port's behaviour contract, run against every adapter: the same calls give the same
 * results and fail the same way (kind, code, message). Each adapter's test file wraps the simulator the
 * suite makes (on the test database, with the suite's clock) in its own way.
 */
export interface ContractSubject {
  hubs: HubService;
  close?: () => Promise<void>;
}

export const HOST = "hub.contract.test";
/** A new Hub is ready 10 seconds after creation and running 10 seconds later. */
export const STARTUP_MS = 10_000;
const START = new Date("2026-04-01T00:00:00Z");

/** A stand-in for the license file signature: the contract checks that the simulator asks it, not how it signs. */
export const signed = (terms: Partial<VerifiedLicenseTerms> & { externalLicenseId: string }) =>
  `SIGNED:${JSON.stringify({ name: "Contract Clinics", nodes: 25, planType: "ultimate", hasCloudSupport: true, validFrom: "2026-03-01T00:00:00.000Z", validTo: "2027-03-01T00:00:00.000Z", ...terms })}`;
export const verifyLicense: LicenseVerifier = (code) =>
  code.startsWith("SIGNED:") ? (JSON.parse(code.slice("SIGNED:".length)) as VerifiedLicenseTerms) : null;

const ADMIN: HubAdministrator = {
  userName: "erin-admin",
  firstName: "Erin",
  lastName: "Contract",
  phoneNumber: "+1 206 555 0100",
  email: "erin@example.org",
  password: "Hub-admin-1",
};

const failure = (fields: { kind?: string; code?: string; providerMessage?: string; field?: string }) =>
  expect.objectContaining(fields);

export function hubContract(adapter: string, start: (simulator: HubService) => Promise<ContractSubject>) {
  describe(`Hub service contract: ${adapter}`, () => {
    let clock = START;
    let subject: ContractSubject;
    let hubs: HubService;
    const simulator = createHubSimulator({
      store: db,
      host: HOST,
      startupMs: STARTUP_MS,
      verifyLicense,
      now: () => clock,
    });
    let made = 0;
    /** A fresh subdomain per test, so the tests share one database without meeting. */
    const fresh = () => `${adapter.replace(/\W/g, "").slice(0, 8)}-hub-${++made}`;
    const later = (ms: number) => (clock = new Date(clock.getTime() + ms));
    /** What the Hub does when the link is opened. */
    const redeem = (url: string) => redeemSignInLink(db, url, clock);

    beforeAll(async () => {
      subject = await start(simulator);
      hubs = subject.hubs;
    });
    afterAll(async () => {
      await subject.close?.();
    });
    beforeEach(async () => {
      clock = START;
      await clearHubFaults(db);
    });

    /** A Hub taken through the whole sequence up to a running instance. */
    async function runningHub(customerId = "cus-contract") {
      const tenant = await hubs.createTenant({
        customerId,
        subdomain: fresh(),
        region: "US",
        idempotencyKey: crypto.randomUUID(),
      });
      await hubs.addTenant(tenant);
      await hubs.registerTenant(tenant.hubId);
      later(2 * STARTUP_MS);
      return tenant;
    }

    it("tells available, taken and refused subdomains apart, whatever their case", async () => {
      const subdomain = fresh();
      expect(await hubs.checkDomain(subdomain)).toBe("available");
      await hubs.createTenant({ customerId: "cus-1", subdomain, region: "EU", idempotencyKey: crypto.randomUUID() });
      expect(await hubs.checkDomain(subdomain.toUpperCase())).toBe("taken");
      expect(await hubs.checkDomain("support")).toBe("not_allowed");
      expect(await hubs.checkDomain("my-gatekeeper-hub")).toBe("not_allowed");
      expect(await hubs.checkDomain("short")).toBe("not_allowed");
    });

    it("creates a tenant once per idempotency key, at a lowercase address that is ready, then running, later", async () => {
      const subdomain = fresh();
      const key = crypto.randomUUID();
      const tenant = await hubs.createTenant({
        customerId: "cus-1",
        subdomain: subdomain.toUpperCase(),
        region: "EU",
        idempotencyKey: key,
      });
      expect(tenant).toEqual({
        hubId: expect.stringMatching(/^hub_/),
        url: `https://${subdomain}.${HOST}`,
        subdomain,
        region: "EU",
        ready: false,
        running: false,
      });
      const again = await hubs.createTenant({ customerId: "cus-1", subdomain, region: "EU", idempotencyKey: key });
      expect(again.hubId).toBe(tenant.hubId);

      expect(await hubs.syncTenant(tenant.hubId)).toEqual({ ready: false });
      expect(await hubs.startHub(tenant.url)).toEqual({ running: false });
      later(STARTUP_MS);
      expect(await hubs.syncTenant(tenant.hubId)).toEqual({ ready: true });
      // Hub state starts a ready Hub at once, before it would have started by itself.
      expect(await hubs.startHub(tenant.url)).toEqual({ running: true });
      expect(await hubs.startHub(tenant.url)).toEqual({ running: true });
    });

    it("refuses a taken or reserved subdomain, saying which", async () => {
      const subdomain = fresh();
      await hubs.createTenant({ customerId: "cus-1", subdomain, region: "US", idempotencyKey: crypto.randomUUID() });
      await expect(
        hubs.createTenant({ customerId: "cus-2", subdomain, region: "US", idempotencyKey: crypto.randomUUID() }),
      ).rejects.toEqual(
        failure({
          kind: "final",
          code: "subdomain_taken",
          providerMessage: SUBDOMAIN_MESSAGES.taken,
          field: "subdomain",
        }),
      );
      await expect(
        hubs.createTenant({
          customerId: "cus-2",
          subdomain: "portal",
          region: "US",
          idempotencyKey: crypto.randomUUID(),
        }),
      ).rejects.toEqual(failure({ kind: "final", providerMessage: SUBDOMAIN_MESSAGES.notAllowed, field: "subdomain" }));
    });

    it("registers a tenant only once it is added, and either call can be repeated", async () => {
      const tenant = await hubs.createTenant({
        customerId: "cus-1",
        subdomain: fresh(),
        region: "US",
        idempotencyKey: crypto.randomUUID(),
      });
      await expect(hubs.registerTenant(tenant.hubId)).rejects.toEqual(failure({ kind: "final", code: "not_added" }));
      await hubs.addTenant(tenant);
      await hubs.addTenant(tenant);
      await hubs.registerTenant(tenant.hubId);
      await hubs.registerTenant(tenant.hubId);
      await expect(hubs.syncTenant("hub_unknown")).rejects.toEqual(failure({ kind: "final", code: "not_found" }));
    });

    it("sets up the administrator on a running Hub, again for a repeat, and refuses a second one", async () => {
      const tenant = await hubs.createTenant({
        customerId: "cus-1",
        subdomain: fresh(),
        region: "US",
        idempotencyKey: crypto.randomUUID(),
      });
      await expect(hubs.setUpAdmin(tenant.url, ADMIN)).rejects.toEqual(
        failure({ kind: "retryable", code: "not_running" }),
      );
      later(2 * STARTUP_MS);
      const session = await hubs.setUpAdmin(tenant.url, ADMIN);
      expect(session).toEqual({
        jwt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        id: expect.any(String),
        refreshToken: expect.any(String),
      });
      const repeat = await hubs.setUpAdmin(tenant.url, ADMIN);
      expect(repeat.jwt).not.toBe(session.jwt);
      await expect(hubs.setUpAdmin(tenant.url, { ...ADMIN, password: "Other-pass-1" })).rejects.toEqual(
        failure({ kind: "final", code: "admin_exists" }),
      );
      await expect(hubs.setUpAdmin(tenant.url, { ...ADMIN, userName: "  " })).rejects.toEqual(
        failure({ kind: "final", field: "userName", providerMessage: "Can't be empty." }),
      );
    });

    it("takes a license whose signature holds, with the administrator's session, on one Hub only", async () => {
      const tenant = await runningHub("cus-licenses");
      const { jwt } = await hubs.setUpAdmin(tenant.url, ADMIN);
      const code = signed({ externalLicenseId: `GK-${tenant.hubId}` });
      await expect(hubs.uploadLicense(tenant.url, code, "not-the-session")).rejects.toEqual(
        failure({ kind: "final", code: "unauthorized" }),
      );
      await expect(hubs.uploadLicense(tenant.url, code.replace("SIGNED", "FORGED"), jwt)).rejects.toEqual(
        failure({
          kind: "final",
          code: "invalid_license",
          providerMessage: "The license file's signature is not valid.",
        }),
      );
      await expect(
        hubs.uploadLicense(tenant.url, signed({ externalLicenseId: "GK-ON-PREMISE", hasCloudSupport: false }), jwt),
      ).rejects.toEqual(failure({ kind: "final", code: "no_cloud_support" }));
      await expect(
        hubs.uploadLicense(
          tenant.url,
          signed({ externalLicenseId: "GK-OLD", validTo: "2026-01-01T00:00:00.000Z" }),
          jwt,
        ),
      ).rejects.toEqual(failure({ kind: "final", code: "license_expired" }));

      const license = await hubs.uploadLicense(tenant.url, code, jwt);
      expect(license).toEqual({
        licenseId: `GK-${tenant.hubId}`,
        hubId: tenant.hubId,
        licenseCode: code,
        name: "Contract Clinics",
        nodes: 25,
        planType: "ultimate",
        validFrom: new Date("2026-03-01T00:00:00Z"),
        validTo: new Date("2027-03-01T00:00:00Z"),
      });
      expect(await hubs.uploadLicense(tenant.url, code, jwt)).toEqual(license);

      const other = await runningHub("cus-licenses");
      const otherSession = await hubs.setUpAdmin(other.url, ADMIN);
      await expect(hubs.uploadLicense(other.url, code, otherSession.jwt)).rejects.toEqual(
        failure({ kind: "final", code: "license_in_use" }),
      );

      expect(await hubs.customerLicenses("cus-licenses")).toEqual([license]);
      expect(await hubs.licenseList("cus-licenses", [license.licenseId, "GK-NONE"])).toEqual([license]);
      expect(await hubs.licenseList("cus-someone-else", [license.licenseId])).toEqual([]);
      expect(await hubs.licenseList("cus-licenses", [])).toEqual([]);
    });

    it("makes a sign-in link that works once, for a minute, with no password in it", async () => {
      const tenant = await runningHub();
      await expect(hubs.signInLink(tenant.url)).rejects.toEqual(failure({ kind: "final", code: "no_admin" }));
      await hubs.setUpAdmin(tenant.url, ADMIN);
      const link = await hubs.signInLink(tenant.url);
      expect(link.url).toMatch(new RegExp(`^${tenant.url}/sign-in\\?ticket=[\\w-]{43}$`));
      expect(link.url).not.toContain(ADMIN.password);
      expect(link.expiresAt).toEqual(new Date(clock.getTime() + 60_000));
      expect(await redeem(link.url)).toBe(ADMIN.userName);
      expect(await redeem(link.url)).toBeNull();

      const late = await hubs.signInLink(tenant.url);
      later(60_000);
      expect(await redeem(late.url)).toBeNull();
      expect(await redeem(`https://elsewhere.${HOST}/sign-in?${new URL(late.url).searchParams}`)).toBeNull();
    });

    it("fails, hangs or answers not ready when a fault is armed for a call", async () => {
      await injectHubFault(db, "createTenant", { message: "Tenant quota reached." });
      const request = {
        customerId: "cus-1",
        subdomain: fresh(),
        region: "EU",
        idempotencyKey: crypto.randomUUID(),
      } as const;
      await expect(hubs.createTenant(request)).rejects.toEqual(
        failure({ kind: "final", code: "injected_fault", providerMessage: "Tenant quota reached." }),
      );
      await injectHubFault(db, "createTenant", { mode: "not_ready" });
      const tenant = await hubs.createTenant(request);
      expect(tenant).toMatchObject({ ready: false, running: false });
      later(2 * STARTUP_MS);

      await injectHubFault(db, "syncTenant", { mode: "not_ready", times: 2 });
      expect(await hubs.syncTenant(tenant.hubId)).toEqual({ ready: false });
      expect(await hubs.syncTenant(tenant.hubId)).toEqual({ ready: false });
      expect(await hubs.syncTenant(tenant.hubId)).toEqual({ ready: true });

      await injectHubFault(db, "startHub", { mode: "not_ready", times: "always" });
      expect(await hubs.startHub(tenant.url)).toEqual({ running: false });
      await clearHubFaults(db);
      expect(await hubs.startHub(tenant.url)).toEqual({ running: true });

      await injectHubFault(db, "setUpAdmin", { mode: "not_ready" });
      await expect(hubs.setUpAdmin(tenant.url, ADMIN)).rejects.toEqual(
        failure({ kind: "retryable", code: "not_ready" }),
      );

      // The answer is lost after the administrator was made: the caller cannot tell, and a repeat is safe.
      await injectHubFault(db, "setUpAdmin", { mode: "lose" });
      await expect(hubs.setUpAdmin(tenant.url, ADMIN)).rejects.toEqual(
        failure({ kind: "unknown", code: "injected_fault" }),
      );
      await expect(hubs.setUpAdmin(tenant.url, { ...ADMIN, userName: "someone-else" })).rejects.toEqual(
        failure({ code: "admin_exists" }),
      );
      expect(await hubs.setUpAdmin(tenant.url, ADMIN)).toEqual(expect.objectContaining({ jwt: expect.any(String) }));

      // Longer than the HTTP adapter waits (4 s), so over HTTP it is the adapter that gives up.
      await injectHubFault(db, "checkDomain", { mode: "hang", hangMs: 6_000 });
      await expect(hubs.checkDomain(fresh())).rejects.toEqual(failure({ kind: "unknown" }));
    }, 60_000);
  });
}
