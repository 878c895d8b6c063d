import { describe, expect, it } from "vitest";
import {
  DEFAULT_HUB_LICENSES_QUERY,
  hubLicensesSearch,
  hubsSearch,
  requestedHubLicenses,
  requestedHubType,
  sortedBy,
} from "~/domain/hubs";
import { requestedPage } from "~/domain/pagination";

describe("the Hubs page's query", () => {
  it("leaves defaults out, and refuses a type it does not know", () => {
    expect(hubsSearch({ type: "all", page: 1 })).toBe("");
    expect(hubsSearch({ type: "local", page: 3 })).toBe("?type=local&page=3");
    expect(requestedHubType(null)).toBe("all");
    expect(requestedHubType("cloud")).toBe("cloud");
    expect(requestedHubType("Cloud")).toBeNull();
  });
});

describe("a Hub's licenses table's query", () => {
  const parse = (text: string) => requestedHubLicenses(new URLSearchParams(text), requestedPage);

  it("reads the status, the order (- for descending) and the page, and refuses anything else", () => {
    expect(parse("")).toEqual(DEFAULT_HUB_LICENSES_QUERY);
    expect(parse("licensesStatus=expired&licensesSort=-nodes&licensesPage=2")).toEqual({
      status: "expired",
      sort: "nodes",
      direction: "desc",
      page: 2,
    });
    expect(parse("licensesSort=name")).toMatchObject({ sort: "name", direction: "asc" });
    for (const bad of ["licensesSort=key", "licensesStatus=soon", "licensesPage=0", "licensesSort=--name"])
      expect(parse(bad), bad).toBeNull();
  });

  it("keeps the Hubs table's own query, and a header sorts by its column ascending first, then the other way, from page 1", () => {
    const query = { status: "active", sort: "name", direction: "asc", page: 2 } as const;
    expect(hubLicensesSearch({ type: "cloud", page: 2 }, query)).toBe(
      "?type=cloud&page=2&licensesStatus=active&licensesSort=name&licensesPage=2",
    );
    expect(hubLicensesSearch({ type: "all", page: 1 }, DEFAULT_HUB_LICENSES_QUERY)).toBe("");
    expect(sortedBy(query, "name")).toEqual({ ...query, direction: "desc", page: 1 });
    expect(sortedBy(query, "validTo")).toEqual({ ...query, sort: "validTo", direction: "asc", page: 1 });
  });
});
