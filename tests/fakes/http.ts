import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

/**
 * A loopback HTTP server for faking a vendor API at the network level, so the real SDK and adapter code
 * run in tests. It listens on 127.0.0.1 on a random port; close() also drops open connections (a fake
 * that was told to hang must not keep the test run alive).
 */
export interface FakeRequest {
  method: string;
  path: string;
  /** Query and form body merged, decoded from the vendors' bracket notation; or a JSON body's object. */
  params: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

export interface FakeResponse {
  status: number;
  json?: unknown;
  /** A non-JSON body, e.g. the HTML page of a proxy's 404. */
  html?: string;
  /** A file, e.g. a PDF, of this content type. */
  bytes?: Uint8Array;
  contentType?: string;
  /** Where a redirect (a 303 after a page's form) sends the browser. */
  location?: string;
}

export interface RunningFake {
  port: number;
  close(): Promise<void>;
}

export async function startFake(handle: (request: FakeRequest) => Promise<FakeResponse>): Promise<RunningFake> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const params = req.headers["content-type"]?.startsWith("application/json")
        ? jsonBody(body)
        : decodeBrackets([...url.searchParams, ...new URLSearchParams(body)]);
      // Node's server awaits no handler; the handler's failure is answered as a 500 by the catch below.
      void handle({ method: req.method ?? "GET", path: url.pathname, params, headers: req.headers })
        .catch((error: unknown): FakeResponse => ({ status: 500, html: `<html><body>${String(error)}</body></html>` }))
        .then((response) => {
          if (res.destroyed) return;
          if (response.bytes) {
            res.writeHead(response.status, { "content-type": response.contentType ?? "application/octet-stream" });
            res.end(response.bytes);
            return;
          }
          const type = response.html === undefined ? "application/json" : "text/html";
          res.writeHead(response.status, {
            "content-type": type,
            ...(response.location ? { location: response.location } : {}),
          });
          res.end(response.html ?? JSON.stringify(response.json));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON body's object; anything else (not JSON, not an object) as an empty one, for the fake to refuse. */
function jsonBody(body: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * Form and query parameters in bracket notation as nested values: `a[b]=1` an object, `a[0]=x` a list,
 * and Chargebee's lists of objects `a[id][0]=x&a[quantity][0]=1` as `[{ id, quantity }]`.
 */
export function decodeBrackets(entries: [string, string][]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    const [name, ...inner] = key.replace(/\]/g, "").split("[");
    if (inner.length === 0) {
      root[name] = value;
    } else if (inner.length === 1 && /^\d+$/.test(inner[0])) {
      ((root[name] ??= []) as unknown[])[Number(inner[0])] = value;
    } else if (inner.length === 2 && /^\d+$/.test(inner[1])) {
      const list = (root[name] ??= []) as Record<string, unknown>[];
      (list[Number(inner[1])] ??= {})[inner[0]] = value;
    } else {
      let node = (root[name] ??= {}) as Record<string, unknown>;
      for (const part of inner.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
      node[inner[inner.length - 1]] = value;
    }
  }
  return root;
}

/** Form values are strings; these read them as the vendor would. */
export const formNumber = z.coerce.number().int();
export const formBoolean = z.enum(["true", "false"]).transform((value) => value === "true");
