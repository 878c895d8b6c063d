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
  it("believes only the socket when no proxy is trusted: forwarding headers are the client's to write", () => {
    const origin = requestOrigin(0);
    const req = request(forwarded);
    expect(origin.clientAddress(req)).toBe("10.0.0.2");
    expect(origin.protocol(req)).toBe("http");
    expect(origin.host(req)).toBe("portal.internal:3000");
  });

  it("takes the address one trusted proxy saw, and the protocol and host it forwarded", () => {
    const origin = requestOrigin(1);
    const req = request(forwarded);
    expect(origin.clientAddress(req)).toBe("203.0.113.7");
    expect(origin.protocol(req)).toBe("https");
    expect(origin.host(req)).toBe("portal.example.com");
  });

  it("goes back as many hops as it trusts, and keeps the socket's protocol when nothing is forwarded", () => {
    expect(requestOrigin(2).clientAddress(request(forwarded))).toBe("198.51.100.9");
    const direct = request({ host: "portal.example.com" }, { encrypted: true });
    expect(requestOrigin(1).protocol(direct)).toBe("https");
    expect(requestOrigin(1).host(direct)).toBe("portal.example.com");
  });
});
