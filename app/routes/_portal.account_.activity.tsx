import { json, redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ACTIVITY_PER_PAGE } from "~/domain/pagination";
import { requireMember } from "~/server/accounts/access.server";
import { activityPage } from "~/server/accounts/activity.server";
import { Group, Stack } from "~/ui/layout";
import { Link } from "~/ui/link";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { ANCHOR_CLASS } from "~/ui/plain-parts";
import { LIST_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";
import { Text } from "~/ui/typography";

export const links: LinksFunction = () => LIST_STYLES;

export const handle = { title: "Activity" };
export const meta = pageMeta("Activity");

const ACTIVITY = "/account/activity";

/**
 * What happened to the organization, newest first, who did it and when: for Owners and Billing admins. Paged by
 * the entry id (`?before=`), so an old page costs what the first does.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "activity.view");
  const raw = new URL(request.url).searchParams.get("before");
  const before = raw === null ? null : Number(raw);
  if (before !== null && !(Number.isSafeInteger(before) && before > 0)) throw redirect(ACTIVITY);
  const { entries, olderBefore } = await activityPage(member.organization.id, { before, pageSize: ACTIVITY_PER_PAGE });
  return json({
    organizationName: member.organization.name,
    first: before === null,
    olderHref: olderBefore === null ? null : `${ACTIVITY}?before=${olderBefore}`,
    entries: entries.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
  });
}

const dateTime = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

export default function Activity() {
  const { organizationName, entries, olderHref, first } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1100}>
      <Text size="lg">
        What happened to {organizationName}, newest first: who did what, and when. Times are in UTC. Nobody can change
        the log.
      </Text>
      {entries.length === 0 ? (
        <Text>Nothing has happened yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table striped withTableBorder aria-label="Activity">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">When</Table.Th>
                <Table.Th scope="col">Who</Table.Th>
                <Table.Th scope="col">What</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>
                    <time dateTime={entry.createdAt}>{dateTime.format(new Date(entry.createdAt))}</time>
                  </Table.Td>
                  <Table.Td>{entry.actorName}</Table.Td>
                  <Table.Td>{entry.summary}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group gap="md">
        {first ? null : (
          <Link className={ANCHOR_CLASS} to={ACTIVITY}>
            Newest
          </Link>
        )}
        {olderHref ? (
          <Link className={ANCHOR_CLASS} to={olderHref}>
            Older
          </Link>
        ) : null}
      </Group>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
