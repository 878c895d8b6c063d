import { Anchor, Text } from "~/ui/typography";
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { isDistributor } from "~/domain/customers";
import { requireAdmin } from "~/server/auth.server";
import { listOrganizationsForAdmin } from "~/server/organizations.server";
import { Stack } from "~/ui/layout";
import { documentTitle, PageErrorBoundary } from "~/ui/page";
import { LIST_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";

export const links: LinksFunction = () => LIST_STYLES;

export const handle = { title: "Customers" };
export const meta: MetaFunction = () => documentTitle("Customers");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ organizations: await listOrganizationsForAdmin() });
}

export default function AdminCustomers() {
  const { organizations } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1200}>
      <Text size="lg">Every organization in the portal: its members and how many licenses it holds.</Text>
      <Anchor to="/admin">Jobs that need attention</Anchor>
      <Table.ScrollContainer minWidth={700}>
        <Table striped withTableBorder>
          <Table.Caption>{organizations.length} organizations</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Organization</Table.Th>
              <Table.Th scope="col">Type</Table.Th>
              <Table.Th scope="col">Members</Table.Th>
              <Table.Th scope="col">Pending invitations</Table.Th>
              <Table.Th scope="col">Licenses</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {organizations.map((organization) => (
              <Table.Tr key={organization.id}>
                <Table.Td>{organization.name}</Table.Td>
                <Table.Td>{isDistributor(organization) ? "Distributor" : "Customer"}</Table.Td>
                <Table.Td>{organization.members}</Table.Td>
                <Table.Td>{organization.pendingInvitations}</Table.Td>
                <Table.Td>{organization.licenses}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
