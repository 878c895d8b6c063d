import { describe, expect, it } from "vitest";
import { parsePublicUrl } from "~/server/platform/config/public-url.server";
import { isHostWithPort, requestOrigin } from "../../scripts/remix-adapter.mjs";

/** The parts of Node's request that requestOrigin reads; `rawHeaders` as node:http gives them. */
function request(
  headers: Record<string, string>,
  {
    remoteAddress = "10.0.0.2",
    encrypted = false,
    rawHeaders,
  }: { remoteAddress?: string; encrypted?: boolean; rawHeaders?: string[] } = {},
) {
  return {
    headers,
    rawHeaders: rawHeaders ?? Object.entries(headers).flat(),
    socket: { remoteAddress, encrypted },
    connection: { remoteAddress },
  };
}

const forwarded = {
  host: "portal.internal:3000",
  "x-forwarded-for": "198.51.100.9, 203.0.113.7",
  "x-forwarded-proto": "http, https",
  "x-forwarded-host": "client-wrote.example, portal.example.com",
};

describe("where a request came from", () => {
  it.each([
    // No proxy trusted: the socket only, as forwarding headers are the client's to write.
    { hops: 0, clientAddress: "10.0.0.2", protocol: "http", host: "portal.internal:3000" },
    // One trusted proxy: the values it appended (the right-most), not the ones the client wrote before them.
    { hops: 1, clientAddress: "203.0.113.7", protocol: "https", host: "portal.example.com" },
  ])("with $hops trusted proxies, believes $clientAddress over $protocol to $host", ({ hops, ...expected }) => {
    const origin = requestOrigin(hops);
    const req = request(forwarded);
    expect({ clientAddress: origin.clientAddress(req), ...origin.of(req) }).toEqual(expected);
  });

  it("reads X-Forwarded-Proto: http, https behind one trusted hop as https (the client wrote the http)", () => {
    const req = request({ host: "portal.example.com", "x-forwarded-proto": "http, https" });
    expect(requestOrigin(1).of(req)).toEqual({ protocol: "https", host: "portal.example.com" });
    // A scheme that is neither is ignored: the socket's stands.
    const odd = request({ host: "portal.example.com", "x-forwarded-proto": "gopher" });
    expect(requestOrigin(1).of(odd)?.protocol).toBe("http");
  });

  it("goes back as many hops as it trusts, and keeps the socket's protocol when nothing is forwarded", () => {
    expect(requestOrigin(2).clientAddress(request(forwarded))).toBe("198.51.100.9");
    expect(requestOrigin(2).of(request(forwarded))).toEqual({ protocol: "http", host: "client-wrote.example" });
    const direct = request({ host: "portal.example.com" }, { encrypted: true });
    expect(requestOrigin(1).of(direct)).toEqual({ protocol: "https", host: "portal.example.com" });
  });

  it("builds every URL on PUBLIC_URL when it is set, whatever Host or proxy says", () => {
    const origin = requestOrigin(1, "https://portal.example.com");
    expect(origin.of(request(forwarded))).toEqual({ protocol: "https", host: "portal.example.com" });
    expect(origin.of(request({ host: "evil.example" }))).toEqual({ protocol: "https", host: "portal.example.com" });
  });

  it.each(["x/admin/customers?", "x/admin/customers#", "a b", "[", "x:99999", "%", "a@b", "::1", "x:y:z", "", "x:"])(
    "refuses the Host %j (and the same forwarded by a trusted proxy)",
    (host) => {
      expect(isHostWithPort(host)).toBe(false);
      expect(requestOrigin(0).of(request({ host }))).toBeNull();
      expect(requestOrigin(0, "https://portal.example.com").of(request({ host }))).toBeNull();
      // An empty forwarded value is no forwarded host: the Host stands.
      if (host)
        expect(requestOrigin(1).of(request({ host: "portal.example.com", "x-forwarded-host": host }))).toBeNull();
    },
  );

  it.each([
    "portal.example.com",
    "localhost:3000",
    "127.0.0.1:65535",
    "[::1]:3000",
    "[2001:db8::1]",
    "portal.",
    "my_portal",
  ])("takes the Host %j", (host) => {
    expect(isHostWithPort(host)).toBe(true);
    expect(requestOrigin(0).of(request({ host }))?.host).toBe(host);
  });

  it("refuses a request that names its Host twice", () => {
    const twice = request({ host: "portal.example.com" }, { rawHeaders: ["Host", "portal.example.com", "host", "x"] });
    expect(requestOrigin(0).of(twice)).toBeNull();
  });

  it("takes PUBLIC_URL only as an http(s) origin", () => {
    expect(parsePublicUrl(undefined)).toBeUndefined();
    expect(parsePublicUrl("https://portal.example.com")).toBe("https://portal.example.com");
    expect(parsePublicUrl("https://portal.example.com/")).toBe("https://portal.example.com");
    expect(parsePublicUrl("http://localhost:3000")).toBe("http://localhost:3000");
    for (const wrong of [
      "portal.example.com",
      "ftp://x",
      "https://u:p@x",
      "https://x/portal",
      "https://x/?a",
      "https://x#a",
    ]) {
      expect(() => parsePublicUrl(wrong), wrong).toThrow(/public origin/);
    }
  });
});
