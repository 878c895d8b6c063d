/**
 * The Hub service port: every call the portal makes to the GateKeeper Hub cloud service,
 * typed in the portal's own terms. Adapters (the embedded simulator, the HTTP client of the real service)
 * translate to and from the wire; failures are HubErrors of the shared kinds (final, retryable, unknown).
 *
 * The provisioning sequence of a cloud Hub is: createTenant → addTenant → registerTenant →
 * syncTenant until ready → startHub until running → setUpAdmin → uploadLicense. Every call after
 * createTenant can be repeated safely (repeating one has no further effect), so a job that stopped part-way
 * repeats its step; createTenant takes an idempotency key instead, and a repeat with the same key returns
 * the tenant the first call made.
 */

/** Where a cloud Hub runs: 'US' is region 1 (the default), 'EU' region 2. */
export type HubRegion = "US" | "EU";

/** What the service says of a subdomain: free to take, already a Hub's, or refused. */
export type DomainAvailability = "available" | "taken" | "not_allowed";

export interface NewTenant {
  /** The portal user the Hub belongs to. */
  customerId: string;
  /** The Hub's subdomain, stored lowercase: the Hub's address is https://{subdomain}.{Hub host}. */
  subdomain: string;
  region: HubRegion;
  /** Makes a repeated creation return the first one's tenant instead of a second Hub. */
  idempotencyKey: string;
}

export interface Tenant {
  hubId: string;
  /** The Hub's address, e.g. https://acme-clinic.hub.gatekeeper.example */
  url: string;
  subdomain: string;
  region: HubRegion;
  /** The instance is provisioned (sync tenant answers ready). */
  ready: boolean;
  /** The instance is up (Hub state answers started). */
  running: boolean;
}

/** The Hub's administrator account, made by admin setup. */
export interface HubAdministrator {
  userName: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  email: string;
  password: string;
}

/** The administrator's session on the Hub, which license upload needs. */
export interface AdminSession {
  jwt: string;
  id: string;
  refreshToken: string;
}

/** A license as the Hub service holds it, once uploaded to a Hub. */
export interface HubLicense {
  /** The license's external id, e.g. GK-2026-0A1B2C3D. */
  licenseId: string;
  hubId: string;
  /** The signed license file content. */
  licenseCode: string;
  /** The organization the license is assigned to. */
  name: string;
  nodes: number;
  planType: string;
  validFrom: Date;
  validTo: Date;
}

/** A short-lived link that signs the Hub's administrator in once ('Go to Hub'); no password in it. */
export interface SignInLink {
  url: string;
  expiresAt: Date;
}

/** What a Hub reads from a license file: the terms behind a valid signature, or null for a forged one. */
export interface VerifiedLicenseTerms {
  externalLicenseId: string;
  name: string;
  nodes: number;
  planType: string;
  hasCloudSupport: boolean;
  validFrom: string;
  validTo: string;
}
export type LicenseVerifier = (licenseCode: string) => VerifiedLicenseTerms | null;

export interface HubService {
  readonly name: "local" | "http";
  /** GET validate-domain: whether a subdomain can become a new Hub's. */
  checkDomain(subdomain: string): Promise<DomainAvailability>;
  /** GET customer-licenses: the licenses uploaded to the customer's Hubs (the ones in use), newest first. */
  customerLicenses(customerId: string): Promise<HubLicense[]>;
  /** POST license/list: the customer's uploaded licenses among these ids (a Hub's licenses table). */
  licenseList(customerId: string, licenseIds: string[]): Promise<HubLicense[]>;
  /** POST create-tenant: a new cloud Hub; refused when the subdomain is taken or not allowed. */
  createTenant(tenant: NewTenant): Promise<Tenant>;
  /** POST add-tenant: adds the created tenant to the service's routing. */
  addTenant(tenant: Tenant): Promise<void>;
  /** POST register-tenant: registers the Hub with the portal ('Connect to Portal'). */
  registerTenant(hubId: string): Promise<void>;
  /** POST sync-tenant: whether the instance is provisioned yet. */
  syncTenant(hubId: string): Promise<{ ready: boolean }>;
  /** PUT hub-state: starts the instance; whether it is running. */
  startHub(hubUrl: string): Promise<{ running: boolean }>;
  /** POST hub-admin-setup: makes the Hub's administrator and signs them in. */
  setUpAdmin(hubUrl: string, administrator: HubAdministrator): Promise<AdminSession>;
  /** POST hub-license-upload: the Hub checks the license file's signature and takes it. */
  uploadLicense(hubUrl: string, licenseCode: string, jwt: string): Promise<HubLicense>;
  /** POST sign-in-link: a one-time sign-in link for the Hub's administrator, valid for a minute. */
  signInLink(hubUrl: string): Promise<SignInLink>;
}

/** The names of the calls, for fault injection. */
export type HubCall = Exclude<keyof HubService, "name">;

/** Calls that may be repeated with no further effect: the HTTP adapter retries these, and only these. */
export const REPEATABLE_HUB_CALLS: ReadonlySet<HubCall> = new Set<HubCall>([
  "checkDomain",
  "customerLicenses",
  "licenseList",
  "addTenant",
  "registerTenant",
  "syncTenant",
  "startHub",
  "setUpAdmin",
  "uploadLicense",
]);

/** How long a one-time sign-in link works. */
export const SIGN_IN_LINK_SECONDS = 60;

export const HUB_REGIONS: Record<HubRegion, number> = { US: 1, EU: 2 };

/** The service's region number as a region; any other value is the default, US. */
export const regionOf = (value: unknown): HubRegion => (Number(value) === HUB_REGIONS.EU ? "EU" : "US");
