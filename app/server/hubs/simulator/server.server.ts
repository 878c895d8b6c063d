import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import { ProviderError } from "~/server/platform/provider-errors.server";
import { HubError } from "../errors.server";
import { regionOf, type HubService } from "../port.server";
import { HUB_API, licenseToWire, requests, tenantFromWire, tenantToWire, TOO_EARLY } from "../wire.server";

export interface HubSimServerOptions {
  hubs: HubService;
  /** The bearer token callers must present; none means any caller is let in (tests on loopback). */
  token?: string;
  port?: number;
  hostname?: string;
}

export interface RunningHubSim {
  port: number;
  url: string;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
}

class BadRequest extends HubError {}

/** The status a refusal answers with; the HTTP adapter reads the kind back from it. */
function statusOf(error: ProviderError): number {
  if (error.kind === "retryable") return 503;
  if (error.kind === "unknown") return 500;
  if (error.code === "not_found") return 404;
  if (error.code === "subdomain_taken" || error.code === "admin_exists" || error.code === "license_in_use") return 409;
  return error instanceof BadRequest ? 400 : 422;
}

const parse = <T>(shape: z.ZodType<T>, body: unknown): T => {
  const parsed = shape.safeParse(body);
  if (!parsed.success) {
    const message = "The request body is not valid.";
    throw new BadRequest(message, { kind: "final", providerMessage: message, code: "bad_request" });
  }
  return parsed.data;
};

const ok = (body: unknown, status = 200): Answer => ({ status, body });

/**
 * The simulator as the Hub service's HTTP API (wire.server), for `npm run hub-sim` and for the contract
 * suite's loopback run of the HTTP adapter: each route parses its body, calls the simulator and maps its
 * HubErrors to statuses (final 4xx, retryable 503, unknown 500).
 */
async function route(
  hubs: HubService,
  method: string,
  url: URL,
  body: unknown,
  idempotencyKey: string,
): Promise<Answer> {
  const path = url.pathname;
  if (method === "GET" && path.startsWith(HUB_API.validateDomain)) {
    const availability = await hubs.checkDomain(decodeURIComponent(path.slice(HUB_API.validateDomain.length)));
    return ok({ exists: availability === "taken", allowed: availability !== "not_allowed" });
  }
  if (method === "GET" && path === HUB_API.customerLicenses) {
    return ok((await hubs.customerLicenses(url.searchParams.get("userId") ?? "")).map(licenseToWire));
  }
  switch (`${method} ${path}`) {
    case `POST ${HUB_API.licenseList}`: {
      const request = parse(requests.licenseList, body);
      return ok((await hubs.licenseList(request.userId, request.license_ids)).map(licenseToWire));
    }
    case `POST ${HUB_API.createTenant}`: {
      const request = parse(requests.createTenant, body);
      const tenant = await hubs.createTenant({
        customerId: request.userId,
        subdomain: request.uniqueName,
        region: regionOf(request.hubRegion),
        idempotencyKey,
      });
      return ok(tenantToWire(tenant), 201);
    }
    case `POST ${HUB_API.addTenant}`:
      await hubs.addTenant(tenantFromWire(parse(requests.addTenant, body)));
      return ok({});
    case `POST ${HUB_API.registerTenant}`:
      await hubs.registerTenant(parse(requests.registerTenant, body).hubId);
      return ok({});
    case `POST ${HUB_API.syncTenant}`: {
      const { ready } = await hubs.syncTenant(parse(requests.syncTenant, body).hubId);
      return ready ? ok({ ready }) : ok({ ready, code: "not_ready", message: "The Hub is not ready yet." }, TOO_EARLY);
    }
    case `PUT ${HUB_API.hubState}`: {
      const { running } = await hubs.startHub(parse(requests.hubState, body).hubUrl);
      return running
        ? ok({ running }, 202)
        : ok({ running, code: "not_running", message: "The Hub is not running yet." }, TOO_EARLY);
    }
    case `POST ${HUB_API.adminSetup}`: {
      const request = parse(requests.adminSetup, body);
      const session = await hubs.setUpAdmin(request.hubUrl, request.administrator);
      return ok({ token: { jwt: session.jwt, id: session.id }, refreshToken: session.refreshToken });
    }
    case `POST ${HUB_API.licenseUpload}`: {
      const request = parse(requests.licenseUpload, body);
      return ok({ data: licenseToWire(await hubs.uploadLicense(request.hubUrl, request.licenseCode, request.jwt)) });
    }
    case `POST ${HUB_API.signInLink}`: {
      const link = await hubs.signInLink(parse(requests.signInLink, body).hubUrl);
      return ok({ url: link.url, expiresAt: link.expiresAt.toISOString() }, 201);
    }
    default:
      return ok({ message: "No such call.", code: "not_found" }, 404);
  }
}

async function answer(options: HubSimServerOptions, req: IncomingMessage, res: ServerResponse, text: string) {
  const send = ({ status, body }: Answer) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
    return send({ status: 401, body: { message: "The token is not valid.", code: "unauthorized" } });
  }
  try {
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    const key = req.headers["idempotency-key"];
    send(
      await route(
        options.hubs,
        req.method ?? "GET",
        new URL(req.url ?? "/", "http://hub-sim"),
        body,
        typeof key === "string" ? key : "",
      ),
    );
  } catch (error) {
    if (error instanceof SyntaxError)
      return send({ status: 400, body: { message: "The body is not JSON.", code: "bad_request" } });
    if (!(error instanceof ProviderError)) throw error;
    send({ status: statusOf(error), body: { message: error.providerMessage, code: error.code, field: error.field } });
  }
}

export async function startHubSimServer(options: HubSimServerOptions): Promise<RunningHubSim> {
  const server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      answer(options, req, res, text).catch((error: unknown) => {
        console.error("hub-sim:", error);
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ message: "Internal error." }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.hostname ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://${options.hostname ?? "127.0.0.1"}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // A call told to hang must not keep the process alive.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
