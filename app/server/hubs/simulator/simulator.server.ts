import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import { normalSubdomain, SUBDOMAIN_MESSAGES, subdomainProblem } from "~/domain/hub-subdomain";
import { verifyLicenseFile } from "~/server/hubs/license-files.server";
import { hashPassword, verifyPassword } from "~/server/platform/passwords.server";
import { newId, once, wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import { affectedRows } from "~/server/platform/database/portal-database.server";
import { hubAdmins, hubLicenses, hubSignInLinks, hubTenants } from "~/server/platform/database/tables.server";
import { HubError, hubRefused } from "../errors.server";
import {
  HUB_REGIONS,
  regionOf,
  SIGN_IN_LINK_SECONDS,
  type HubAdministrator,
  type HubLicense,
  type HubService,
  type LicenseVerifier,
  type NewTenant,
  type Tenant,
} from "../port.server";
import { withHubFaults } from "./faults.server";

export interface SimulatorOptions {
  store: EmbeddedStore;
  /** The fixed Hub host: a Hub's address is https://{subdomain}.{host}. */
  host: string;
  /** A new Hub is ready this long after its creation, and running as long again later; 0 in tests. */
  startupMs?: number;
  /** Checks a license file's signature; the portal's own check by default. */
  verifyLicense?: LicenseVerifier;
  now?: () => Date;
}

type TenantRow = typeof hubTenants.$inferSelect;
type LicenseRow = typeof hubLicenses.$inferSelect;

const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");
const secret = () => randomBytes(32).toString("base64url");

/** The license as the port reports it: without whose it is and when it came, which are the service's. */
const licenseOf = ({ customerId: _customerId, uploadedAt: _uploadedAt, ...license }: LicenseRow): HubLicense => license;

/** The portal's own check of a license file (Ed25519, docs/license-files.md), in the Hub port's terms. */
const portalLicenseCheck: LicenseVerifier = (file) => {
  const terms = verifyLicenseFile(file);
  return (
    terms && {
      externalLicenseId: terms.id,
      name: terms.organization,
      nodes: terms.users,
      planType: terms.plan,
      hasCloudSupport: terms.cloudSupport,
      validFrom: terms.validFrom,
      validTo: terms.validTo,
    }
  );
};

/**
 * The embedded Hub service: what the GateKeeper Hub cloud service does for the calls the portal makes,
 * in the portal's database (hub_* tables). A tenant becomes ready `startupMs` after its creation and runs
 * `startupMs` later (or as soon as Hub state starts it, once ready). It refuses what the real service
 * refuses: a taken or reserved subdomain, a forged license file, a license already on another Hub, an
 * upload without the administrator's session.
 */
class Simulator implements HubService {
  readonly name = "local";
  private readonly verifyLicense: LicenseVerifier;

  constructor(private readonly options: SimulatorOptions & { now: () => Date; startupMs: number }) {
    this.verifyLicense = options.verifyLicense ?? portalLicenseCheck;
  }

  private get store() {
    return this.options.store;
  }

  private now() {
    return wholeSeconds(this.options.now());
  }

  private async tenant(where: { hubId: string } | { hubUrl: string }): Promise<TenantRow> {
    const condition = "hubId" in where ? eq(hubTenants.id, where.hubId) : eq(hubTenants.url, where.hubUrl);
    const [row] = await this.store.select().from(hubTenants).where(condition).limit(1);
    if (!row) throw hubRefused("This Hub was not found.", "not_found");
    return row;
  }

  private async admin(hubId: string) {
    const [admin] = await this.store.select().from(hubAdmins).where(eq(hubAdmins.hubId, hubId));
    return admin;
  }

  /** Stamps one of the tenant's moments (added, registered) once: a repeat of the call keeps the first. */
  private async stampOnce(row: TenantRow, column: "addedAt" | "registeredAt") {
    if (row[column]) return;
    await this.store
      .update(hubTenants)
      .set(column === "addedAt" ? { addedAt: this.now() } : { registeredAt: this.now() })
      .where(and(eq(hubTenants.id, row.id), isNull(hubTenants[column])));
  }

  private tenantOf(row: TenantRow): Tenant {
    const now = this.now();
    return {
      hubId: row.id,
      url: row.url,
      subdomain: row.subdomain,
      region: regionOf(row.region),
      ready: row.readyAt <= now,
      running: row.runningAt <= now,
    };
  }

  async checkDomain(subdomain: string) {
    const name = normalSubdomain(subdomain);
    if (subdomainProblem(name)) return "not_allowed" as const;
    const [taken] = await this.store
      .select({ id: hubTenants.id })
      .from(hubTenants)
      .where(eq(hubTenants.subdomain, name));
    return taken ? ("taken" as const) : ("available" as const);
  }

  async customerLicenses(customerId: string) {
    const rows = await this.store
      .select()
      .from(hubLicenses)
      .where(eq(hubLicenses.customerId, customerId))
      .orderBy(desc(hubLicenses.uploadedAt), desc(hubLicenses.licenseId));
    return rows.map(licenseOf);
  }

  async licenseList(customerId: string, licenseIds: string[]) {
    if (licenseIds.length === 0) return [];
    const rows = await this.store
      .select()
      .from(hubLicenses)
      .where(and(eq(hubLicenses.customerId, customerId), inArray(hubLicenses.licenseId, licenseIds)))
      .orderBy(hubLicenses.licenseId);
    return rows.map(licenseOf);
  }

  async createTenant(request: NewTenant) {
    const subdomain = normalSubdomain(request.subdomain);
    const problem = subdomainProblem(subdomain);
    if (problem) throw hubRefused(problem, "subdomain_not_allowed", "subdomain");
    const now = this.now();
    const hubId = await once(this.store, request.idempotencyKey, "hubs.createTenant", now, async (tx) => {
      const { startupMs } = this.options;
      // One statement takes the subdomain or finds it taken: two creations of one subdomain cannot both pass a
      // check made before their inserts.
      const [made] = await tx
        .insert(hubTenants)
        .values({
          id: newId("hub"),
          customerId: request.customerId,
          subdomain,
          url: `https://${subdomain}.${this.options.host}`,
          region: HUB_REGIONS[request.region],
          readyAt: new Date(now.getTime() + startupMs),
          runningAt: new Date(now.getTime() + 2 * startupMs),
          createdAt: now,
        })
        .onConflictDoNothing({ target: hubTenants.subdomain })
        .returning({ id: hubTenants.id });
      if (!made) throw hubRefused(SUBDOMAIN_MESSAGES.taken, "subdomain_taken", "subdomain");
      return made.id;
    });
    return this.tenantOf(await this.tenant({ hubId }));
  }

  async addTenant(tenant: Tenant) {
    const row = await this.tenant({ hubId: tenant.hubId });
    if (row.url !== tenant.url) throw hubRefused("The tenant does not match the Hub.", "tenant_mismatch");
    await this.stampOnce(row, "addedAt");
  }

  async registerTenant(hubId: string) {
    const row = await this.tenant({ hubId });
    if (!row.addedAt) throw hubRefused("The tenant has not been added yet.", "not_added");
    await this.stampOnce(row, "registeredAt");
  }

  async syncTenant(hubId: string) {
    return { ready: this.tenantOf(await this.tenant({ hubId })).ready };
  }

  async startHub(hubUrl: string) {
    const row = await this.tenant({ hubUrl });
    const tenant = this.tenantOf(row);
    if (!tenant.ready) return { running: false };
    if (!tenant.running) {
      await this.store.update(hubTenants).set({ runningAt: this.now() }).where(eq(hubTenants.id, row.id));
    }
    return { running: true };
  }

  async setUpAdmin(hubUrl: string, administrator: HubAdministrator) {
    const row = await this.tenant({ hubUrl });
    if (!this.tenantOf(row).running) {
      const message = "The Hub is not running yet.";
      throw new HubError(message, { kind: "retryable", providerMessage: message, code: "not_running" });
    }
    for (const field of ["userName", "firstName", "lastName", "email", "password"] as const) {
      if (!administrator[field].trim()) throw hubRefused("Can't be empty.", "invalid_administrator", field);
    }
    const token = { jwt: this.jwt(row, administrator.userName), id: newId("usr"), refreshToken: secret() };
    let existing = await this.admin(row.id);
    if (!existing) {
      const { userName, firstName, lastName, email, phoneNumber } = administrator;
      const passwordHash = await hashPassword(administrator.password);
      // The Hub's first administrator, unless a setup running at the same time made one first.
      const [made] = await this.store
        .insert(hubAdmins)
        .values({
          hubId: row.id,
          userName,
          firstName,
          lastName,
          email,
          phoneNumber,
          passwordHash,
          tokenHash: sha256(token.jwt),
          createdAt: this.now(),
        })
        .onConflictDoNothing({ target: hubAdmins.hubId })
        .returning({ hubId: hubAdmins.hubId });
      if (made) return token;
      existing = await this.admin(row.id);
    }
    // A repeat of the same setup (say after a lost answer) signs the same administrator in again.
    const same =
      existing !== undefined &&
      existing.userName === administrator.userName &&
      (await verifyPassword(administrator.password, existing.passwordHash));
    if (!same) throw hubRefused("This Hub already has an administrator.", "admin_exists");
    await this.store
      .update(hubAdmins)
      .set({ tokenHash: sha256(token.jwt) })
      .where(eq(hubAdmins.hubId, row.id));
    return token;
  }

  /** A session token shaped like the real service's JWT; only its hash is kept. */
  private jwt(tenant: TenantRow, userName: string) {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    return `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: userName, hub: tenant.id, iat: this.now().getTime() / 1000 })}.${secret()}`;
  }

  async uploadLicense(hubUrl: string, licenseCode: string, jwt: string) {
    const tenant = await this.tenant({ hubUrl });
    const admin = await this.admin(tenant.id);
    if (!admin || admin.tokenHash !== sha256(jwt)) {
      throw hubRefused("The administrator's session is not valid.", "unauthorized");
    }
    const terms = this.verifyLicense(licenseCode);
    if (!terms) throw hubRefused("The license file's signature is not valid.", "invalid_license");
    if (!terms.hasCloudSupport) throw hubRefused("This license does not include cloud support.", "no_cloud_support");
    const now = this.now();
    if (new Date(terms.validTo) <= now) throw hubRefused("This license has expired.", "license_expired");
    const row = {
      licenseId: terms.externalLicenseId,
      hubId: tenant.id,
      customerId: tenant.customerId,
      licenseCode,
      name: terms.name,
      nodes: terms.nodes,
      planType: terms.planType,
      validFrom: wholeSeconds(new Date(terms.validFrom)),
      validTo: wholeSeconds(new Date(terms.validTo)),
      uploadedAt: now,
    };
    // A license the Hub holds takes the file uploaded now (renewed, or changed), in place of the one it had; one
    // on another Hub stays there. One statement decides, so two Hubs uploading one license cannot both have it.
    const [kept] = await this.store
      .insert(hubLicenses)
      .values(row)
      .onConflictDoUpdate({ target: hubLicenses.licenseId, set: row, setWhere: eq(hubLicenses.hubId, tenant.id) })
      .returning({ licenseId: hubLicenses.licenseId });
    if (!kept) throw hubRefused("This license is already in use on another Hub.", "license_in_use");
    return licenseOf(row);
  }

  async signInLink(hubUrl: string) {
    const tenant = await this.tenant({ hubUrl });
    const admin = await this.admin(tenant.id);
    if (!admin) throw hubRefused("This Hub has no administrator yet.", "no_admin");
    const ticket = secret();
    const now = this.now();
    const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_SECONDS * 1000);
    await this.store
      .insert(hubSignInLinks)
      .values({ ticketHash: sha256(ticket), hubId: tenant.id, userName: admin.userName, expiresAt, createdAt: now });
    return { url: `${tenant.url}/sign-in?ticket=${ticket}`, expiresAt };
  }
}

export function createHubSimulator({
  now = () => new Date(),
  startupMs = 0,
  ...options
}: SimulatorOptions): HubService {
  return withHubFaults(new Simulator({ ...options, now, startupMs }), options.store);
}

/**
 * The Hub's side of a sign-in link, which the portal never calls (the Hub does when the link is opened):
 * the administrator it signs in, once, before it expires, on the Hub it names; null for any other link.
 */
export async function redeemSignInLink(store: EmbeddedStore, url: string, now = new Date()): Promise<string | null> {
  const link = new URL(url);
  const ticketHash = sha256(link.searchParams.get("ticket") ?? "");
  return store.transaction(async (tx) => {
    const [found] = await tx
      .select({ link: hubSignInLinks, url: hubTenants.url })
      .from(hubSignInLinks)
      .innerJoin(hubTenants, eq(hubTenants.id, hubSignInLinks.hubId))
      .where(eq(hubSignInLinks.ticketHash, ticketHash));
    if (!found || found.link.usedAt || found.link.expiresAt <= now || new URL(found.url).host !== link.host)
      return null;
    // Spent only if still unused as it is spent: of two openings at once, one signs in.
    const spent = await tx
      .update(hubSignInLinks)
      .set({ usedAt: wholeSeconds(now) })
      .where(and(eq(hubSignInLinks.ticketHash, ticketHash), isNull(hubSignInLinks.usedAt)));
    return affectedRows(spent) > 0 ? found.link.userName : null;
  });
}
