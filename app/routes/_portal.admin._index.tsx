import { requireAdmin } from "~/server/accounts/access.server";
import { Badge } from "~/ui/badge";
import { Anchor, Text, Title } from "~/ui/typography";
import { json, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDate } from "~/domain/format";
import { listJobsNeedingAttention } from "~/server/platform/jobs/runner.server";
import { hasTimeMachine } from "~/server/subscriptions/time-machine.server";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { LIST_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";

export const links: LinksFunction = () => LIST_STYLES;

export const handle = { title: "Admin portal" };
export const meta = pageMeta("Admin portal");

/** The admin portal's start: jobs that stopped (an unknown outcome, a failure) and what they say, then the accounts. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const jobs = (await listJobsNeedingAttention()).map((job) => ({
    id: job.id,
    kind: job.kind,
    ownerId: job.ownerId,
    status: job.status,
    attempts: job.attempts,
    step: job.error?.step ?? "",
    message: job.error?.message ?? "",
    updatedAt: job.updatedAt.toISOString(),
  }));
  return json({ jobs, timeMachine: hasTimeMachine() });
}

export default function AdminStart() {
  const { jobs, timeMachine } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1200}>
      <Title order={2}>Jobs that need attention</Title>
      <Text>
        Orders and other jobs that stopped: <strong>needs attention</strong> means a provider call may have taken effect
        and is being checked before anything is done again; <strong>failed</strong> means the customer was shown why and
        can try again.
      </Text>
      <Table.ScrollContainer minWidth={700}>
        <Table striped withTableBorder>
          <Table.Caption>{jobs.length === 0 ? "No job needs attention." : `${jobs.length} jobs`}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Job</Table.Th>
              <Table.Th scope="col">Kind</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Step</Table.Th>
              <Table.Th scope="col">Message</Table.Th>
              <Table.Th scope="col">Runs</Table.Th>
              <Table.Th scope="col">Updated</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {jobs.map((job) => (
              <Table.Tr key={job.id}>
                <Table.Td>
                  <code>{job.id}</code>
                </Table.Td>
                <Table.Td>{job.kind}</Table.Td>
                <Table.Td>
                  <Badge color={job.status === "failed" ? "red.9" : "yellow.9"} variant="light">
                    {job.status === "needs_attention" ? "needs attention" : job.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{job.step}</Table.Td>
                <Table.Td>{job.message}</Table.Td>
                <Table.Td>{job.attempts}</Table.Td>
                <Table.Td>{formatDate(job.updatedAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Anchor to="/admin/customers">Every account and its licenses</Anchor>
      <Anchor to="/admin/outbox">The outbox: mail the portal kept instead of sending</Anchor>
      {timeMachine ? (
        <Anchor to="/admin/time-machine">
          The time machine: move the embedded billing engine&apos;s clock forward
        </Anchor>
      ) : null}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
