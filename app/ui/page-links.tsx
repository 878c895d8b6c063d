import { Link } from "~/ui/link";
import { pageLinkNumbers, pageRangeText } from "~/domain/pagination";
import { ANCHOR_CLASS, GROUP_CLASS, groupStyle, SMALL_TEXT_STYLE, TEXT_CLASS } from "./plain-parts";

/**
 * A table's pages as plain links (`?page=N`), so paging works without JavaScript and every page has
 * its own URL. The current page is text marked `aria-current`; the range of rows is written out. Drawn with
 * plain elements (plain-parts): a big account shows a full set of links where the demo account shows none.
 */
export function PageLinks({
  page,
  pageCount,
  pageSize,
  total,
  href,
  label,
}: {
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  href: (page: number) => string;
  /** Names the navigation landmark, e.g. "Licenses pages". */
  label: string;
}) {
  const pages = pageLinkNumbers(page, pageCount);
  return (
    <div className={GROUP_CLASS} style={groupStyle("md", "space-between")}>
      <p className={TEXT_CLASS} data-size="sm" style={SMALL_TEXT_STYLE}>
        {pageRangeText(page, pageSize, total)}
      </p>
      {pageCount > 1 ? (
        <nav className={GROUP_CLASS} style={groupStyle("sm", "flex-start")} aria-label={label}>
          {page > 1 ? (
            <Link className={ANCHOR_CLASS} data-underline="hover" to={href(page - 1)} rel="prev">
              Previous
            </Link>
          ) : null}
          {pages.map((n, index) => (
            // A gap in the numbers shows as an ellipsis before the number after it.
            <PageNumber
              key={n}
              n={n}
              current={n === page}
              afterGap={index > 0 && n - pages[index - 1] > 1}
              href={href}
            />
          ))}
          {page < pageCount ? (
            <Link className={ANCHOR_CLASS} data-underline="hover" to={href(page + 1)} rel="next">
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

function PageNumber({
  n,
  current,
  afterGap,
  href,
}: {
  n: number;
  current: boolean;
  afterGap: boolean;
  href: (page: number) => string;
}) {
  return (
    <>
      {afterGap ? (
        <span className={TEXT_CLASS} aria-hidden>
          …
        </span>
      ) : null}
      {current ? (
        <span className={TEXT_CLASS} style={{ fontWeight: 700 }} aria-current="page">
          {n}
        </span>
      ) : (
        <Link className={ANCHOR_CLASS} data-underline="hover" to={href(n)} aria-label={`Page ${n}`}>
          {n}
        </Link>
      )}
    </>
  );
}
