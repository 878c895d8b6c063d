/**
 * Paging a list by its rows instead of by page numbers (the renewals view, /quotes): a page starts after the last
 * row of the page before it (`?after=`) or, going back, before the first row of the page after it (`?before=`).
 * The server reads the page's rows and one more, which says whether another page follows, so a page never counts
 * the list nor walks the rows before it: any page costs what the first does, however long the list.
 */

/**
 * A row by its place in the list's order: a moment (milliseconds) and a text unique among the list's rows, which
 * settles a tie on the moment.
 */
export interface RowKey {
  at: number;
  tie: string;
}

/** Where a page starts: after a row, before one (going back), or null for the list's first page. */
export type PageStart = { after: RowKey } | { before: RowKey } | null;

/** A key as it rides in the address: `<milliseconds>.<tie>`. */
const keyText = (key: RowKey) => `${key.at}.${key.tie}`;

function keyOf(text: string): RowKey | null {
  const match = /^(\d{1,15})\.(.{1,100})$/s.exec(text);
  return match ? { at: Number(match[1]), tie: match[2] } : null;
}

/** The start a page's address asks for: null for the first page; "invalid" for a malformed one or for both. */
export function pageStartOf(query: URLSearchParams): PageStart | "invalid" {
  const after = query.get("after");
  const before = query.get("before");
  if (after === null && before === null) return null;
  if (after !== null && before !== null) return "invalid";
  const key = keyOf(after ?? before ?? "");
  if (key === null) return "invalid";
  return after !== null ? { after: key } : { before: key };
}

/** Sets a page's start in an address's query (nothing for the first page). */
export function setPageStart(query: URLSearchParams, start: PageStart): URLSearchParams {
  if (start && "after" in start) query.set("after", keyText(start.after));
  if (start && "before" in start) query.set("before", keyText(start.before));
  return query;
}

/** Whether a page is read going back (from `?before=`): its rows are read in the list's reverse order. */
export const readsBackward = (start: PageStart) => start !== null && "before" in start;

/**
 * A page from the rows read from its start, in the reading's order, at most `perPage` and one more: the page's rows
 * in the list's order, and whether rows lie before and after them. A page reached going back has rows after it; one
 * reached going on has rows before it (those it started after).
 */
export function pageOfRows<Row>(read: Row[], start: PageStart, perPage: number) {
  const backward = readsBackward(start);
  const more = read.length > perPage;
  const rows = more ? read.slice(0, perPage) : [...read];
  if (backward) rows.reverse();
  return { rows, earlier: backward ? more : start !== null, later: backward || more };
}

/**
 * The addresses of the pages beside a page (null where there is none): the page before starts before its first
 * row, the page after starts after its last one.
 */
export function besidePages<Row>(
  page: { rows: Row[]; earlier: boolean; later: boolean },
  keyOfRow: (row: Row) => RowKey,
  hrefOf: (start: PageStart) => string,
) {
  const first = page.rows[0];
  const last = page.rows[page.rows.length - 1];
  return {
    earlierHref: page.earlier && first !== undefined ? hrefOf({ before: keyOfRow(first) }) : null,
    laterHref: page.later && last !== undefined ? hrefOf({ after: keyOfRow(last) }) : null,
  };
}
