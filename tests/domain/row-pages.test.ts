import { describe, expect, it } from "vitest";
import { renewalsCsvHref, renewalsHref } from "~/domain/customers";
import { quotesHref } from "~/domain/quotes";
import { besidePages, pageOfRows, pageStartOf, type PageStart } from "~/domain/row-pages";

/**
 * Lists paged by their rows (the renewals view, /quotes): where a page starts rides in its address as a row's key,
 * read back as written, and a page's rows, read with one more, say whether pages lie beside it.
 */
describe("a page's start in its address", () => {
  const key = { at: 1_767_225_600_000, tie: "GK-SLR-2026-0102" };
  const startOf = (href: string) => pageStartOf(new URL(href, "http://portal.test").searchParams);

  it("writes a page's start into the renewals view's and the quotes list's addresses and reads the same start back", () => {
    for (const start of [null, { after: key }, { before: key }] satisfies PageStart[]) {
      expect(startOf(renewalsHref(90, start))).toEqual(start);
      expect(startOf(quotesHref({ status: "open", customerId: "c-1" }, start))).toEqual(start);
    }
    expect(renewalsHref(30)).toBe("/customers/renewals");
    expect(renewalsHref(60, { after: key })).toBe("/customers/renewals?within=60&after=1767225600000.GK-SLR-2026-0102");
    // The filter stays beside the start.
    expect(quotesHref({ status: "open", customerId: null }, { before: { at: 5, tie: "q-1" } })).toBe(
      "/quotes?status=open&before=5.q-1",
    );
    expect(quotesHref({ status: null, customerId: null })).toBe("/quotes");
    // A tie is typed by nobody but may hold any character: it is escaped and read back whole.
    const odd = { at: 5, tie: "GK.1&2 #" };
    expect(startOf(renewalsHref(30, { before: odd }))).toEqual({ before: odd });
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
      expect(pageStartOf(new URLSearchParams(query))).toBe("invalid");
    }
  });

  it("gives the renewals CSV the window alone", () => {
    expect(renewalsCsvHref(30)).toBe("/customers/renewals.csv");
    expect(renewalsCsvHref(90)).toBe("/customers/renewals.csv?within=90");
  });
});

describe("a page of rows read with one more", () => {
  const keyOf = (n: number) => ({ at: n, tie: `r${n}` });
  const hrefOf = (start: PageStart) => quotesHref({ status: null, customerId: null }, start);
  const beside = (read: number[], start: PageStart) => {
    const page = pageOfRows(read, start, 3);
    return { rows: page.rows, ...besidePages(page, keyOf, hrefOf) };
  };

  it("links the first page on only while a row more was read", () => {
    expect(beside([1, 2, 3, 4], null)).toEqual({ rows: [1, 2, 3], earlierHref: null, laterHref: "/quotes?after=3.r3" });
    expect(beside([1, 2, 3], null)).toEqual({ rows: [1, 2, 3], earlierHref: null, laterHref: null });
  });

  it("links a page reached going on back to its first row", () => {
    expect(beside([4, 5], { after: keyOf(3) })).toEqual({
      rows: [4, 5],
      earlierHref: "/quotes?before=4.r4",
      laterHref: null,
    });
  });

  it("puts a page reached going back in the list's order, linked on, and back only while a row more was read", () => {
    expect(beside([3, 2, 1, 0], { before: keyOf(4) })).toEqual({
      rows: [1, 2, 3],
      earlierHref: "/quotes?before=1.r1",
      laterHref: "/quotes?after=3.r3",
    });
    expect(beside([3, 2, 1], { before: keyOf(4) })).toMatchObject({ rows: [1, 2, 3], earlierHref: null });
  });
});
