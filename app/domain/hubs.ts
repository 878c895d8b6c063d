/**
 * The Hubs page and a Hub's licenses table: what their URLs may ask for. Filters, order and
 * page live in the query, so every view is a link that works without JavaScript and can be bookmarked.
 * The licenses modal is a child route of /hubs: its parameters carry a `licenses` prefix where they would
 * otherwise collide with the Hubs table's own (`page`).
 */

/** The Hub table shows 10 rows a page, a Hub's license table 5. */
export const HUBS_PER_PAGE = 10;
export const HUB_LICENSES_PER_PAGE = 5;

export type HubType = "cloud" | "local";
export const HUB_TYPE_LABELS: Record<HubType, string> = { cloud: "Cloud", local: "On-Premise" };

/** The Type filter of `?type=`: absent is every Hub; an unknown value is null (the page redirects). */
export function requestedHubType(value: string | null): HubType | "all" | null {
  if (value === null) return "all";
  return value === "cloud" || value === "local" ? value : null;
}

/** The Hubs table's own query: Type filter and page; the first page and "all" are left out. */
export interface HubsQuery {
  type: HubType | "all";
  page: number;
}

export function hubsSearch({ type, page }: HubsQuery): string {
  const search = new URLSearchParams();
  if (type !== "all") search.set("type", type);
  if (page > 1) search.set("page", String(page));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export const hubsHref = (query: HubsQuery) => `/hubs${hubsSearch(query)}`;

/** The licenses table's sortable columns: all but the key. Days left orders as valid to does. */
export const HUB_LICENSE_SORTS = ["name", "nodes", "status", "validFrom", "validTo", "daysLeft"] as const;
export type HubLicenseSort = (typeof HUB_LICENSE_SORTS)[number];
export type SortDirection = "asc" | "desc";
export type LicenseStatusFilter = "active" | "expired" | "all";

export interface HubLicensesQuery {
  status: LicenseStatusFilter;
  sort: HubLicenseSort;
  direction: SortDirection;
  page: number;
}

/** Newest first unless the URL asks otherwise, like the Licenses page. */
export const DEFAULT_HUB_LICENSES_QUERY: HubLicensesQuery = {
  status: "all",
  sort: "validFrom",
  direction: "desc",
  page: 1,
};

const isSort = (value: string): value is HubLicenseSort => (HUB_LICENSE_SORTS as readonly string[]).includes(value);

/**
 * The licenses table's view asked for by `licensesStatus`, `licensesSort` (a column, `-` first for
 * descending) and `licensesPage`; null when any of them is not one the table offers (the page redirects
 * to the table's default view instead of guessing).
 */
export function requestedHubLicenses(
  search: URLSearchParams,
  page: (value: string | null) => number | null,
): HubLicensesQuery | null {
  const status = search.get("licensesStatus") ?? "all";
  if (status !== "all" && status !== "active" && status !== "expired") return null;
  const sortText = search.get("licensesSort");
  const direction: SortDirection = sortText?.startsWith("-") ? "desc" : "asc";
  const column = sortText?.replace(/^-/, "") ?? null;
  if (column !== null && !isSort(column)) return null;
  const requested = page(search.get("licensesPage"));
  if (requested === null) return null;
  return column === null
    ? { ...DEFAULT_HUB_LICENSES_QUERY, status, page: requested }
    : { status, sort: column, direction, page: requested };
}

/** The query of a licenses-table view, defaults left out, after the Hubs table's own (kept underneath). */
export function hubLicensesSearch(hubs: HubsQuery, licenses: HubLicensesQuery): string {
  const search = new URLSearchParams(hubsSearch(hubs));
  if (licenses.status !== "all") search.set("licensesStatus", licenses.status);
  const isDefaultOrder =
    licenses.sort === DEFAULT_HUB_LICENSES_QUERY.sort && licenses.direction === DEFAULT_HUB_LICENSES_QUERY.direction;
  if (!isDefaultOrder) search.set("licensesSort", `${licenses.direction === "desc" ? "-" : ""}${licenses.sort}`);
  if (licenses.page > 1) search.set("licensesPage", String(licenses.page));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** A column header's link: ascending first, the other way when the table is already sorted by it; page 1. */
export function sortedBy(query: HubLicensesQuery, column: HubLicenseSort): HubLicensesQuery {
  const direction: SortDirection = query.sort === column && query.direction === "asc" ? "desc" : "asc";
  return { ...query, sort: column, direction, page: 1 };
}
