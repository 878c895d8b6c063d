import { db } from "~/server/db.server";
import { signLicenseFile } from "~/server/license-files.server";
import { createHubSimulator } from "~/server/hubs/simulator/simulator.server";

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
});
