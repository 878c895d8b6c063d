import { beforeAll, describe, expect, it } from "vitest";
import type { openPostgres as OpenPostgres } from "~/server/platform/database/postgres.server";
import type { PortalDatabase } from "~/server/platform/database/portal-database.server";
import type { createHubSimulator as CreateHubSimulator } from "~/server/hubs/simulator/simulator.server";
import { raceAdministrator, racedLicense, settled } from "../support/hub-races";
import { postgresTestDatabase, startPortalOn } from "../support/postgres";

/**
 * The embedded Hub service on PostgreSQL with instances side by side, each on a pool of its own: what it decides
 * from what it read (a subdomain free, a license on no Hub) still holds when two instances ask at the same moment.
 */
const database = postgresTestDatabase();
const INSTANCES = 4;

let openPostgres: typeof OpenPostgres;
let createHubSimulator: typeof CreateHubSimulator;

beforeAll(async () => {
  // The simulator's idempotency lock is the portal engine's (lockFor): the portal opens this database.
  await startPortalOn(database.url);
  ({ openPostgres } = await import("~/server/platform/database/postgres.server"));
  ({ createHubSimulator } = await import("~/server/hubs/simulator/simulator.server"));
}, 60_000);

async function withInstances(work: (instances: ReturnType<typeof CreateHubSimulator>[]) => Promise<void>) {
  const pools = Array.from({ length: INSTANCES }, () => openPostgres(database.url, { max: 2 }));
  try {
    await work(
      pools.map(({ db }) =>
        createHubSimulator({
          store: db as unknown as PortalDatabase,
          host: "hub.races.test",
          verifyLicense: racedLicense,
        }),
      ),
    );
  } finally {
    await Promise.all(pools.map(({ pool }) => pool.end()));
  }
}

describe("the Hub simulator on PostgreSQL, instances side by side", () => {
  it("gives a subdomain that several instances create at once to one of them and refuses the others as taken", async () => {
    await withInstances(async (instances) => {
      const outcomes = await settled(
        instances.map((hubs, n) =>
          hubs.createTenant({
            customerId: "cus-race",
            subdomain: "raced-at-once",
            region: "US",
            idempotencyKey: `k${n}`,
          }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome === "subdomain_taken")).toHaveLength(INSTANCES - 1);
    });
  }, 60_000);

  it("creates one tenant for one idempotency key sent to several instances at once", async () => {
    await withInstances(async (instances) => {
      const tenants = await Promise.all(
        instances.map((hubs) =>
          hubs.createTenant({ customerId: "cus-race", subdomain: "one-key", region: "US", idempotencyKey: "one-key" }),
        ),
      );
      expect(new Set(tenants.map((tenant) => tenant.hubId)).size).toBe(1);
    });
  }, 60_000);

  it("puts a license that several Hubs upload at once on one of them only", async () => {
    await withInstances(async (instances) => {
      const hubs = await Promise.all(
        instances.map(async (service, n) => {
          const tenant = await service.createTenant({
            customerId: "cus-race",
            subdomain: `raced-upload-${n}`,
            region: "US",
            idempotencyKey: `upload-${n}`,
          });
          return { service, url: tenant.url, jwt: (await service.setUpAdmin(tenant.url, raceAdministrator)).jwt };
        }),
      );
      const outcomes = await settled(hubs.map(({ service, url, jwt }) => service.uploadLicense(url, "file", jwt)));
      expect(outcomes.filter((outcome) => outcome === "license_in_use")).toHaveLength(INSTANCES - 1);
      expect(await instances[0].customerLicenses("cus-race")).toHaveLength(1);
    });
  }, 60_000);
});
