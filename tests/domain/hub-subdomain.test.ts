import { isSubdomainAllowed, normalSubdomain, SUBDOMAIN_MESSAGES, subdomainProblem } from "~/domain/hub-subdomain";

describe("cloud Hub subdomains", () => {
  it("take letters, digits and hyphens, six or more, in any case", () => {
    expect(subdomainProblem("Acme-Clinic-01")).toBeNull();
    expect(normalSubdomain(" Acme-Clinic ")).toBe("acme-clinic");
    expect(subdomainProblem("acme_clinic")).toBe(SUBDOMAIN_MESSAGES.characters);
    expect(subdomainProblem("acme clinic")).toBe(SUBDOMAIN_MESSAGES.characters);
    expect(subdomainProblem("acme")).toBe(SUBDOMAIN_MESSAGES.tooShort);
    expect(subdomainProblem("a".repeat(64))).toBe("Must have 63 or fewer characters.");
  });

  it("refuse reserved words and forbidden fragments", () => {
    expect(subdomainProblem("Support")).toBe(SUBDOMAIN_MESSAGES.notAllowed);
    expect(subdomainProblem("the-gatekeeper-hub")).toBe(SUBDOMAIN_MESSAGES.notAllowed);
    expect(isSubdomainAllowed("supporters")).toBe(true);
    expect(isSubdomainAllowed("xn--80ak6aa92e")).toBe(false);
  });
});
