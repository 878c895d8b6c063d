import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { ErrorKind } from "~/server/platform/provider-errors.server";
import { HubError } from "../errors.server";
import {
  HUB_REGIONS,
  REPEATABLE_HUB_CALLS,
  type DomainAvailability,
  type HubAdministrator,
  type HubCall,
  type HubService,
  type NewTenant,
  type Tenant,
} from "../port.server";
import {
  adminSessionBody,
  domainBody,
  failureBody,
  HUB_API,
  licenseBody,
  licenseFromWire,
  signInLinkBody,
  tenantBody,
  tenantFromWire,
  tenantToWire,
  TOO_EARLY,
  uploadBody,
} from "../wire.server";
import { currentCause } from "~/server/platform/log/request-context.server";

export interface HttpHubOptions {
  /** The service's base URL, e.g. https://hubs.example.com (the API's paths follow it). */
  baseUrl: string;
  token: string;
  /** The fixed Hub host, for the tenant's host names. */
  host: string;
  /** How long one attempt may take before its outcome counts as unknown. */
  timeoutMs?: number;
  /** Further attempts of a repeatable call after a retryable or unknown failure. */
  retries?: number;
  /** The wait before the first retry; it doubles for each further one. */
  backoffMs?: number;
}

interface HubRequest {
  method: "GET" | "POST" | "PUT";
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  /** Statuses that are an answer of this call rather than a failure (425: "not yet"). */
  answers?: readonly number[];
}

/** For calls whose answer is only their status. */
const anything = z.unknown();

/** Status codes that say nothing happened: a repeat later is safe. */
const NOTHING_HAPPENED = new Set([408, 429, 502, 503]);

/** The Hub service failure as a HubError: the service refused (final), was busy (retryable), or may have acted (unknown). */
function hubErrorOf(call: HubCall, status: number, body: unknown): HubError {
  const failure = failureBody.safeParse(body);
  const { message, code, field } = failure.success ? failure.data : {};
  const kind: ErrorKind = NOTHING_HAPPENED.has(status) ? "retryable" : status >= 500 ? "unknown" : "final";
  // A refused token is the portal's configuration, not something to tell a customer.
  const providerMessage = status === 401 || status === 403 ? undefined : message;
  return new HubError(`Hub service ${call} failed: ${status} ${message ?? ""}`.trim(), {
    kind,
    providerMessage,
    code: code ?? (status === 404 ? "not_found" : status === 401 || status === 403 ? "unauthorized" : undefined),
    field,
  });
}

/** A request that got no answer: refused connections never reached the service; anything else may have. */
function networkErrorOf(call: HubCall, error: unknown): HubError {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const refusedConnection = cause !== undefined && "code" in cause && cause.code === "ECONNREFUSED";
  const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
  const kind: ErrorKind = refusedConnection ? "retryable" : "unknown";
  const what = timedOut ? "timed out" : refusedConnection ? "could not connect" : String(error);
  return new HubError(`Hub service ${call} failed: ${what}`, { kind, code: timedOut ? "timeout" : "network" });
}

/**
 * The Hub service port over the service's HTTP API (wire.server). Each attempt has a timeout; calls that
 * may be repeated with no further effect (REPEATABLE_HUB_CALLS) are retried with backoff after a
 * retryable or unknown failure; create tenant and sign-in link are tried once (create tenant carries an
 * Idempotency-Key header, so the caller's own repeat with the same key is safe).
 */
class HttpHubs implements HubService {
  readonly name = "http";

  constructor(private readonly options: Required<HttpHubOptions>) {}

  private async send<T>(call: HubCall, request: HubRequest, shape: z.ZodType<T>): Promise<{ status: number; body: T }> {
    const attempts = REPEATABLE_HUB_CALLS.has(call) ? 1 + this.options.retries : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(call, request, shape);
      } catch (error) {
        const retry = error instanceof HubError && error.kind !== "final" && attempt < attempts;
        if (!retry) throw error;
        await sleep(this.options.backoffMs * 2 ** (attempt - 1));
      }
    }
  }

  private async attempt<T>(
    call: HubCall,
    request: HubRequest,
    shape: z.ZodType<T>,
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.token}`,
      accept: "application/json",
    };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    if (request.idempotencyKey) headers["idempotency-key"] = request.idempotencyKey;
    // The request the call follows from, so that the service's log and the portal's can be matched.
    const cause = currentCause();
    if (cause) headers["x-request-id"] = cause;
    let response: Response;
    let text: string;
    try {
      // Joined as text, so a base URL with a path of its own (https://example.com/hub-service) keeps it.
      response = await fetch(this.options.baseUrl.replace(/\/+$/, "") + request.path, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw networkErrorOf(call, error);
    }
    const body = parseJson(text);
    if (!response.ok && !request.answers?.includes(response.status)) throw hubErrorOf(call, response.status, body);
    const parsed = shape.safeParse(body);
    if (!parsed.success) {
      // The service acted but answered something else than promised: the outcome is not known.
      throw new HubError(`Hub service ${call} answered an unexpected body.`, { kind: "unknown", code: "bad_answer" });
    }
    return { status: response.status, body: parsed.data };
  }

  async checkDomain(subdomain: string): Promise<DomainAvailability> {
    const { body } = await this.send(
      "checkDomain",
      { method: "GET", path: HUB_API.validateDomain + encodeURIComponent(subdomain) },
      domainBody,
    );
    return !body.allowed ? "not_allowed" : body.exists ? "taken" : "available";
  }

  async customerLicenses(customerId: string) {
    const { body } = await this.send(
      "customerLicenses",
      { method: "GET", path: `${HUB_API.customerLicenses}?${new URLSearchParams({ userId: customerId })}` },
      licenseBody.array(),
    );
    return body.map(licenseFromWire);
  }

  async licenseList(customerId: string, licenseIds: string[]) {
    const request = {
      method: "POST",
      path: HUB_API.licenseList,
      body: { userId: customerId, license_ids: licenseIds },
    } as const;
    const { body } = await this.send("licenseList", request, licenseBody.array());
    return body.map(licenseFromWire);
  }

  async createTenant(tenant: NewTenant) {
    const body = {
      userId: tenant.customerId,
      uniqueName: tenant.subdomain,
      hostNames: [`${tenant.subdomain}.${this.options.host}`],
      hubRegion: HUB_REGIONS[tenant.region],
    };
    const request = {
      method: "POST",
      path: HUB_API.createTenant,
      body,
      idempotencyKey: tenant.idempotencyKey,
    } as const;
    const { body: created } = await this.send("createTenant", request, tenantBody);
    return tenantFromWire(created);
  }

  async addTenant(tenant: Tenant) {
    await this.send("addTenant", { method: "POST", path: HUB_API.addTenant, body: tenantToWire(tenant) }, anything);
  }

  async registerTenant(hubId: string) {
    await this.send("registerTenant", { method: "POST", path: HUB_API.registerTenant, body: { hubId } }, anything);
  }

  async syncTenant(hubId: string) {
    const request = { method: "POST", path: HUB_API.syncTenant, body: { hubId }, answers: [TOO_EARLY] } as const;
    const { status } = await this.send("syncTenant", request, anything);
    return { ready: status === 200 };
  }

  async startHub(hubUrl: string) {
    const request = { method: "PUT", path: HUB_API.hubState, body: { hubUrl }, answers: [TOO_EARLY] } as const;
    const { status } = await this.send("startHub", request, anything);
    return { running: status === 202 };
  }

  async setUpAdmin(hubUrl: string, administrator: HubAdministrator) {
    const request = { method: "POST", path: HUB_API.adminSetup, body: { hubUrl, administrator } } as const;
    const { body } = await this.send("setUpAdmin", request, adminSessionBody);
    return { jwt: body.token.jwt, id: body.token.id, refreshToken: body.refreshToken };
  }

  async uploadLicense(hubUrl: string, licenseCode: string, jwt: string) {
    const request = { method: "POST", path: HUB_API.licenseUpload, body: { hubUrl, licenseCode, jwt } } as const;
    const { body } = await this.send("uploadLicense", request, uploadBody);
    return licenseFromWire(body.data);
  }

  async signInLink(hubUrl: string) {
    const { body } = await this.send(
      "signInLink",
      { method: "POST", path: HUB_API.signInLink, body: { hubUrl } },
      signInLinkBody,
    );
    return { url: body.url, expiresAt: new Date(body.expiresAt) };
  }
}

const parseJson = (text: string): unknown => {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
};

export function createHttpHubs({
  timeoutMs = 15_000,
  retries = 2,
  backoffMs = 500,
  ...options
}: HttpHubOptions): HubService {
  return new HttpHubs({ ...options, timeoutMs, retries, backoffMs });
}
