import { describe, expect, it } from "vitest";
import { daysLeft, licenseStatus, shortLicenseKey } from "~/domain/license-status";
import { canStartTrial } from "~/domain/trials";
import { formatCents, formatDate } from "~/domain/format";

const now = new Date("2026-11-22T12:00:00Z");

describe("license status", () => {
  it("is expired when valid-to is not in the future", () => {
    expect(licenseStatus(new Date("2026-11-22T12:00:00Z"), now)).toBe("expired");
    expect(licenseStatus(new Date("2026-11-21T12:00:00Z"), now)).toBe("expired");
    expect(licenseStatus(new Date("2026-11-22T12:00:01Z"), now)).toBe("active");
  });

  it("counts days left rounding up, and never below 0", () => {
    expect(daysLeft(new Date("2026-11-22T12:00:01Z"), now)).toBe(1);
    expect(daysLeft(new Date("2026-11-29T12:00:00Z"), now)).toBe(7);
    expect(daysLeft(new Date("2026-11-29T13:00:00Z"), now)).toBe(8);
    expect(daysLeft(new Date("2026-01-01T00:00:00Z"), now)).toBe(0);
  });

  it("shows the first 15 characters of a license key, then dots", () => {
    expect(shortLicenseKey("GK1.eyJleHRlcm5hbExpY2Vuc2VJZCI6")).toBe("GK1.eyJleHRlcm5...");
    expect(shortLicenseKey("SHORT")).toBe("SHORT");
  });
});

describe("trial eligibility", () => {
  it("gives a customer one trial and a distributor any number", () => {
    expect(canStartTrial({ customerType: "customer" }, 0)).toBe(true);
    expect(canStartTrial({ customerType: "customer" }, 1)).toBe(false);
    expect(canStartTrial({ customerType: "distributor" }, 0)).toBe(true);
    expect(canStartTrial({ customerType: "distributor" }, 7)).toBe(true);
  });
});

describe("display formats", () => {
  it("shows cents as US dollars with two decimals and dates as MM/DD/YYYY", () => {
    expect(formatCents(15000)).toBe("$150.00");
    expect(formatCents(750)).toBe("$7.50");
    expect(formatCents(123456)).toBe("$1,234.56");
    expect(formatDate("2026-03-05T10:00:00Z")).toBe("03/05/2026");
  });
});
