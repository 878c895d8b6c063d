/** Paging of tables through plain `?page=` links. */

export const LICENSES_PER_PAGE = 5;

/** The page a `?page=` value asks for: absent means the first; anything but a whole number from 1 is null. */
export function requestedPage(value: string | null): number | null {
  if (value === null) return 1;
  return /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}

/** How many pages `total` rows fill; an empty table still has its one (empty) page. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** 'x-y of n items', the range of rows a page shows. */
export function pageRangeText(page: number, pageSize: number, total: number): string {
  if (total === 0) return "0 items";
  const first = (page - 1) * pageSize + 1;
  return `${first}-${Math.min(total, page * pageSize)} of ${total} items`;
}

/**
 * The page numbers a table's page links show: the first, the last and two either side of the current one,
 * ascending. Worked out from the current page alone, so an account with thousands of pages costs no more.
 */
export function pageLinkNumbers(page: number, pages: number): number[] {
  const near = Array.from({ length: 5 }, (_, index) => page - 2 + index).filter((n) => n > 1 && n < pages);
  return pages > 1 ? [1, ...near, pages] : [1];
}

export const INVOICES_PER_PAGE = 10;

/** The team page's members (and its pending invitations) and the activity log's entries, a page each. */
export const MEMBERS_PER_PAGE = 10;
export const ACTIVITY_PER_PAGE = 25;

/**
 * The administration pages: organizations a page of /admin/customers lists, and a distributor's end customers a
 * page of its administration page lists. The pages' components read them too, so they are not server-only.
 */
export const ADMIN_CUSTOMERS_PER_PAGE = 20;
export const END_CUSTOMERS_PER_PAGE = 50;
