import { Anchor } from "@mantine-parts/components/Anchor/Anchor.mjs";
import { Group } from "@mantine-parts/components/Group/Group.mjs";
import { Text } from "@mantine-parts/components/Text/Text.mjs";
import { Link } from "@remix-run/react";
import { pageRangeText } from "~/domain/pagination";

/**
 * A table's pages as plain links (`?page=N`), so paging works without JavaScript and every page has
 * its own URL. The current page is text marked `aria-current`; the range of rows is written out.
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
  const pages = Array.from({ length: pageCount }, (_, index) => index + 1).filter(
    (n) => n === 1 || n === pageCount || Math.abs(n - page) <= 2,
  );
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm">{pageRangeText(page, pageSize, total)}</Text>
      {pageCount > 1 ? (
        <Group component="nav" aria-label={label} gap="sm">
          {page > 1 ? (
            <Anchor component={Link} to={href(page - 1)} rel="prev">
              Previous
            </Anchor>
          ) : null}
          {pages.map((n, index) => (
            <Group key={n} gap="sm">
              {index > 0 && n - pages[index - 1] > 1 ? <Text aria-hidden>…</Text> : null}
              {n === page ? (
                <Text fw={700} aria-current="page">
                  {n}
                </Text>
              ) : (
                <Anchor component={Link} to={href(n)} aria-label={`Page ${n}`}>
                  {n}
                </Anchor>
              )}
            </Group>
          ))}
          {page < pageCount ? (
            <Anchor component={Link} to={href(page + 1)} rel="next">
              Next
            </Anchor>
          ) : null}
        </Group>
      ) : null}
    </Group>
  );
}
