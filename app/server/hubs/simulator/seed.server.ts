import { createHash, randomBytes } from "node:crypto";
import { env } from "~/server/platform/config/env.server";
import { hashPasswordSync } from "~/server/platform/passwords.server";
import { wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import { hubAdmins, hubLicenses, hubTenants } from "~/server/platform/database/tables.server";
import { HUB_REGIONS, type HubAdministrator, type HubLicense } from "../port.server";

/** A cloud Hub's address on the configured Hub host, as the Hub service gives it. */
export const cloudHubUrl = (subdomain: string, host = env.HUB_HOST) => `https://${subdomain}.${host}`;

/** A demo cloud Hub as the Hub service knows it: its tenant, its administrator and the license on it. */
export interface DemoCloudHub {
  /** The portal user it was made for (the service's customer). */
  customerId: string;
  subdomain: string;
  administrator: HubAdministrator;
  license: Omit<HubLicense, "hubId">;
  /** When it was made. */
  createdAt: Date;
}

/**
 * The demo's cloud Hubs in the embedded Hub service, so that the service knows what the Hubs page lists: their
 * subdomains are taken (a second Hub cannot be deployed at the same address), their administrators can be
 * signed in with 'Go to Hub', and their licenses are in use. Each administrator is signed in, as a deployment
 * leaves it: the session token, by subdomain, is what the portal keeps to upload a renewed license. With the real
 * Hub service there is nothing to seed here (no tokens).
 */
export async function seedHubDemo(
  store: EmbeddedStore,
  hubs: DemoCloudHub[],
  provider = env.HUB_PROVIDER,
): Promise<Record<string, string>> {
  const sessions: Record<string, string> = {};
  if (provider !== "local") return sessions;
  for (const hub of hubs) {
    const id = `hub_demo_${hub.subdomain}`;
    const since = wholeSeconds(hub.createdAt);
    await store.insert(hubTenants).values({
      id,
      customerId: hub.customerId,
      subdomain: hub.subdomain,
      url: cloudHubUrl(hub.subdomain),
      region: HUB_REGIONS.US,
      readyAt: since,
      runningAt: since,
      addedAt: since,
      registeredAt: since,
      createdAt: since,
    });
    const { password, ...administrator } = hub.administrator;
    const session = `demo.${randomBytes(32).toString("base64url")}`;
    sessions[hub.subdomain] = session;
    await store.insert(hubAdmins).values({
      hubId: id,
      ...administrator,
      passwordHash: hashPasswordSync(password),
      tokenHash: createHash("sha256").update(session).digest("base64url"),
      createdAt: since,
    });
    const license = hub.license;
    await store.insert(hubLicenses).values({
      hubId: id,
      customerId: hub.customerId,
      ...license,
      validFrom: wholeSeconds(license.validFrom),
      validTo: wholeSeconds(license.validTo),
      uploadedAt: since,
    });
  }
  return sessions;
}
