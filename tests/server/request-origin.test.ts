import { describe, expect, it } from "vitest";
import { requestOrigin } from "../../scripts/remix-adapter.mjs";

/** The parts of Node's request that requestOrigin reads. */
function request(headers: Record<string, string>, { remoteAddress = "10.0.0.2", encrypted = false } = {}) {
  return { headers, socket: { remoteAddress, encrypted }, connection: { remoteAddress } };
}

const forwarded = {
  host: "portal.internal:3000",
  "x-forwarded-for": "198.51.100.9, 203.0.113.7",
  "x-forwarded-proto": "https, http",
  "x-forwarded-host": "portal.example.com, portal.internal",
};

describe("where a request came from (decisions 050, 140)", () => {
  it.each([
    // No proxy trusted: the socket only, as forwarding headers are the client's to write.
    { hops: 0, clientAddress: "10.0.0.2", protocol: "http", host: "portal.internal:3000" },
    // One trusted proxy: the address it saw, and the protocol and host it forwarded.
    { hops: 1, clientAddress: "203.0.113.7", protocol: "https", host: "portal.example.com" },
  ])("with $hops trusted proxies, believes $clientAddress over $protocol to $host", ({ hops, ...expected }) => {
    const origin = requestOrigin(hops);
    const req = request(forwarded);
    expect({
      clientAddress: origin.clientAddress(req),
      protocol: origin.protocol(req),
      host: origin.host(req),
    }).toEqual(expected);
  });

  it("goes back as many hops as it trusts, and keeps the socket's protocol when nothing is forwarded", () => {
    expect(requestOrigin(2).clientAddress(request(forwarded))).toBe("198.51.100.9");
    const direct = request({ host: "portal.example.com" }, { encrypted: true });
    expect(requestOrigin(1).protocol(direct)).toBe("https");
    expect(requestOrigin(1).host(direct)).toBe("portal.example.com");
  });
});
