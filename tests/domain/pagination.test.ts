import { describe, expect, it } from "vitest";
import { pageLinkNumbers } from "~/domain/pagination";

/** The numbers as the page links showed them before: every page filtered down to the first, the last and two either side. */
const byFiltering = (page: number, pages: number) =>
  Array.from({ length: pages }, (_, index) => index + 1).filter(
    (n) => n === 1 || n === pages || Math.abs(n - page) <= 2,
  );

describe("the page numbers a table links to", () => {
  it("are the first, the last and two either side of the current page", () => {
    expect(pageLinkNumbers(1, 1)).toEqual([1]);
    expect(pageLinkNumbers(1, 2)).toEqual([1, 2]);
    expect(pageLinkNumbers(1, 2000)).toEqual([1, 2, 3, 2000]);
    expect(pageLinkNumbers(1000, 2000)).toEqual([1, 998, 999, 1000, 1001, 1002, 2000]);
    expect(pageLinkNumbers(2000, 2000)).toEqual([1, 1998, 1999, 2000]);
  });

  it("are what filtering every page gave, for every page of tables up to 12 pages", () => {
    for (let pages = 1; pages <= 12; pages += 1) {
      for (let page = 1; page <= pages; page += 1)
        expect(pageLinkNumbers(page, pages)).toEqual(byFiltering(page, pages));
    }
  });
});
