import { z } from "zod";
import type { HubLicense, Tenant } from "./port.server";
import { HUB_REGIONS, regionOf } from "./port.server";

/**
 * The Hub service's HTTP API as the portal speaks it, shared by the HTTP
 * adapter and the simulator's standalone server so the two cannot drift apart. Bodies are JSON; dates are
 * ISO strings; a failure answers 4xx or 5xx with { message, code, field }. Calls that can answer "not yet"
 * (sync tenant, Hub state) answer 425 Too Early for it. docs/hub-service.md lists the calls.
 */
export const HUB_API = {
  /** Followed by the subdomain. */
  validateDomain: "/api/v1/hub/cloud/validate-domain/",
  /** With ?userId= */
  customerLicenses: "/api/v1/license/customer-licenses",
  licenseList: "/api/v1/license/list",
  createTenant: "/api/v1/hub/cloud/create-tenant",
  addTenant: "/api/v1/hub/cloud/add-tenant",
  registerTenant: "/api/v1/hub/cloud/register-tenant",
  syncTenant: "/api/v1/hub/cloud/sync-tenant",
  hubState: "/api/v1/hub/cloud/hub-state",
  adminSetup: "/api/v1/hub/cloud/hub-admin-setup",
  licenseUpload: "/api/v1/hub/cloud/hub-license-upload",
  signInLink: "/api/v1/hub/cloud/sign-in-link",
} as const;

/** "Not yet": the status sync tenant and Hub state answer while the Hub is not ready or not running. */
export const TOO_EARLY = 425;

export const failureBody = z.object({
  message: z.string().optional(),
  code: z.string().optional(),
  field: z.string().optional(),
});

/** The create-tenant answer; add-tenant takes it back as its body. */
export const tenantBody = z.object({
  hubId: z.string(),
  url: z.string(),
  uniqueName: z.string(),
  hubRegion: z.number(),
  isHubReady: z.boolean(),
  isHubInstanceRunning: z.boolean(),
});

export const tenantToWire = (tenant: Tenant): z.infer<typeof tenantBody> => ({
  hubId: tenant.hubId,
  url: tenant.url,
  uniqueName: tenant.subdomain,
  hubRegion: HUB_REGIONS[tenant.region],
  isHubReady: tenant.ready,
  isHubInstanceRunning: tenant.running,
});

export const tenantFromWire = (body: z.infer<typeof tenantBody>): Tenant => ({
  hubId: body.hubId,
  url: body.url,
  subdomain: body.uniqueName,
  region: regionOf(body.hubRegion),
  ready: body.isHubReady,
  running: body.isHubInstanceRunning,
});

export const licenseBody = z.object({
  _id: z.string(),
  hubId: z.string(),
  licenseCode: z.string(),
  info: z.object({
    name: z.string(),
    externalLicenseId: z.string(),
    nodes: z.number(),
    planType: z.string(),
    validfrom: z.string(),
    validto: z.string(),
  }),
});

export const licenseToWire = (license: HubLicense): z.infer<typeof licenseBody> => ({
  _id: license.licenseId,
  hubId: license.hubId,
  licenseCode: license.licenseCode,
  info: {
    name: license.name,
    externalLicenseId: license.licenseId,
    nodes: license.nodes,
    planType: license.planType,
    validfrom: license.validFrom.toISOString(),
    validto: license.validTo.toISOString(),
  },
});

export const licenseFromWire = (body: z.infer<typeof licenseBody>): HubLicense => ({
  licenseId: body.info.externalLicenseId,
  hubId: body.hubId,
  licenseCode: body.licenseCode,
  name: body.info.name,
  nodes: body.info.nodes,
  planType: body.info.planType,
  validFrom: new Date(body.info.validfrom),
  validTo: new Date(body.info.validto),
});

export const domainBody = z.object({ exists: z.boolean(), allowed: z.boolean() });
export const adminSessionBody = z.object({
  token: z.object({ jwt: z.string(), id: z.string() }),
  refreshToken: z.string(),
});
export const uploadBody = z.object({ data: licenseBody });
export const signInLinkBody = z.object({ url: z.string(), expiresAt: z.string() });

/** What the portal sends: the request bodies the simulator's server accepts. */
export const requests = {
  licenseList: z.object({ userId: z.string(), license_ids: z.array(z.string()) }),
  createTenant: z.object({
    userId: z.string(),
    uniqueName: z.string(),
    hostNames: z.array(z.string()),
    hubRegion: z.number(),
  }),
  addTenant: tenantBody,
  registerTenant: z.object({ hubId: z.string() }),
  syncTenant: z.object({ hubId: z.string() }),
  hubState: z.object({ hubUrl: z.string() }),
  adminSetup: z.object({
    hubUrl: z.string(),
    administrator: z.object({
      userName: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      phoneNumber: z.string(),
      email: z.string(),
      password: z.string(),
    }),
  }),
  licenseUpload: z.object({ hubUrl: z.string(), licenseCode: z.string(), jwt: z.string() }),
  signInLink: z.object({ hubUrl: z.string() }),
};
