import { db } from "~/server/platform/database/db.server";
import { signLicenseFile } from "~/server/hubs/license-files.server";
import { createHubSimulator, redeemSignInLink } from "~/server/hubs/simulator/simulator.server";
import { raceAdministrator, racedLicense, settled } from "../support/hub-races";

/** The simulator checks license files with the portal's own signature check unless told otherwise. */
describe("Hub simulator", () => {
  it("accepts a license file the portal signed and refuses an edited one", async () => {
    const hubs = createHubSimulator({ store: db, host: "hub.simulator.test" });
    const tenant = await hubs.createTenant({
      customerId: "cus-sim",
      subdomain: "signed-hub",
      region: "US",
      idempotencyKey: "key-signed-hub",
    });
    expect(tenant).toMatchObject({ ready: true, running: true });
    const { jwt } = await hubs.setUpAdmin(tenant.url, {
      userName: "sim-admin",
      firstName: "Sam",
      lastName: "Simulator",
      phoneNumber: "",
      email: "sam@example.org",
      password: "Hub-admin-1",
    });
    const code = signLicenseFile({
      id: "GK-SIM-1",
      organization: "Simulated Clinics",
      users: 10,
      plan: "advanced",
      type: "recurring",
      cloudSupport: true,
      validFrom: new Date(Date.now() - 86_400_000).toISOString(),
      validTo: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      issuedAt: new Date().toISOString(),
    });
    // Whatever the file's format, changing its last characters breaks its signature.
    const edited = code.slice(0, -6) + (code.endsWith("AAAAAA") ? "BBBBBB" : "AAAAAA");
    await expect(hubs.uploadLicense(tenant.url, edited, jwt)).rejects.toMatchObject({ code: "invalid_license" });
    expect(await hubs.uploadLicense(tenant.url, code, jwt)).toMatchObject({
      licenseId: "GK-SIM-1",
      nodes: 10,
      hubId: tenant.hubId,
    });
  });

  const running = async (hubs: ReturnType<typeof createHubSimulator>, subdomain: string) => {
    const tenant = await hubs.createTenant({
      customerId: "cus-race",
      subdomain,
      region: "US",
      idempotencyKey: subdomain,
    });
    const { jwt } = await hubs.setUpAdmin(tenant.url, raceAdministrator);
    return { url: tenant.url, jwt };
  };

  it("gives a subdomain asked for by two creations at once to one of them, and refuses the other as taken", async () => {
    const hubs = createHubSimulator({ store: db, host: "hub.simulator.test" });
    const create = (key: string) =>
      hubs.createTenant({ customerId: "cus-race", subdomain: "raced-subdomain", region: "US", idempotencyKey: key });
    const outcomes = await settled([create("race-one"), create("race-two"), create("race-three")]);
    expect(outcomes.filter((outcome) => outcome === "subdomain_taken")).toHaveLength(2);
    expect(await hubs.checkDomain("raced-subdomain")).toBe("taken");
  });

  it("puts a license two Hubs upload at once on one of them only", async () => {
    const hubs = createHubSimulator({ store: db, host: "hub.simulator.test", verifyLicense: racedLicense });
    const [first, second] = [await running(hubs, "raced-upload-one"), await running(hubs, "raced-upload-two")];
    const outcomes = await settled([
      hubs.uploadLicense(first.url, "file", first.jwt),
      hubs.uploadLicense(second.url, "file", second.jwt),
    ]);
    expect(outcomes.filter((outcome) => outcome === "license_in_use")).toHaveLength(1);
    const holders = await hubs.customerLicenses("cus-race");
    expect(holders).toHaveLength(1);
    expect(outcomes).toContainEqual(holders[0]);
  });

  it("signs in once with a link opened twice at once", async () => {
    const hubs = createHubSimulator({ store: db, host: "hub.simulator.test" });
    const { url } = await running(hubs, "raced-sign-in");
    const link = await hubs.signInLink(url);
    const outcomes = await Promise.all([redeemSignInLink(db, link.url), redeemSignInLink(db, link.url)]);
    expect(outcomes.filter((outcome) => outcome !== null)).toEqual(["race-admin"]);
  });
});
