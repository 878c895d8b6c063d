import { describe, expect, it } from "vitest";
import { renewalsCsvHref, renewalsHref, renewalsStartOf, type RenewalsStart } from "~/domain/customers";

/** The renewals view's addresses: a window, and where a page starts as a row's key, read back as written. */
describe("the renewals view's page starts", () => {
  const key = { on: 1_767_225_600_000, license: "GK-SLR-2026-0102" };

  it("writes a page's start into its address and reads the same start back", () => {
    for (const start of [null, { after: key }, { before: key }] satisfies RenewalsStart[]) {
      const href = renewalsHref(90, start);
      expect(renewalsStartOf(new URL(href, "http://portal.test").searchParams)).toEqual(start);
    }
    expect(renewalsHref(30)).toBe("/customers/renewals");
    expect(renewalsHref(60, { after: key })).toBe("/customers/renewals?within=60&after=1767225600000.GK-SLR-2026-0102");
    // A license number is typed by nobody but may hold any character: it is escaped and read back whole.
    const odd = { on: 5, license: "GK.1&2 #" };
    expect(renewalsStartOf(new URL(renewalsHref(30, { before: odd }), "http://portal.test").searchParams)).toEqual({
      before: odd,
    });
  });

  it("takes no malformed start, nor two", () => {
    for (const query of [
      "after=",
      "after=GK-1",
      "after=12",
      "after=-1.GK",
      "before=1e3.GK",
      "after=1.GK&before=1.GK",
    ]) {
      expect(renewalsStartOf(new URLSearchParams(query))).toBe("invalid");
    }
  });

  it("gives the CSV the window alone", () => {
    expect(renewalsCsvHref(30)).toBe("/customers/renewals.csv");
    expect(renewalsCsvHref(90)).toBe("/customers/renewals.csv?within=90");
  });
});
