import { Group } from "~/ui/layout";
import { Link } from "~/ui/link";
import { ANCHOR_CLASS } from "~/ui/plain-parts";

/**
 * Previous and Next of a list paged by its rows (app/domain/row-pages): plain links, so paging works without
 * JavaScript and every page is a bookmark; nothing when the list fits one page. No count and no page numbers: the
 * list is never counted.
 */
export function RowPageLinks({
  earlierHref,
  laterHref,
  label,
}: {
  earlierHref: string | null;
  laterHref: string | null;
  /** Names the navigation landmark, e.g. "Quotes pages". */
  label: string;
}) {
  if (!earlierHref && !laterHref) return null;
  return (
    <nav aria-label={label}>
      <Group gap="md">
        {earlierHref ? (
          <Link className={ANCHOR_CLASS} to={earlierHref} rel="prev">
            Previous
          </Link>
        ) : null}
        {laterHref ? (
          <Link className={ANCHOR_CLASS} to={laterHref} rel="next">
            Next
          </Link>
        ) : null}
      </Group>
    </nav>
  );
}
