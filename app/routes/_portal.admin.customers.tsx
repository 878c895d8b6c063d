import { Badge } from "~/ui/badge";
import { Anchor, Text } from "~/ui/typography";
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { isDistributor } from "~/domain/customers";
import { requireAdmin } from "~/server/auth.server";
import { listCustomersWithLicenseCounts } from "~/server/users.server";
import { Stack } from "~/ui/layout";
import { documentTitle, PageErrorBoundary } from "~/ui/page";
import { LIST_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";

export const links: LinksFunction = () => LIST_STYLES;

export const handle = { title: "Customers" };
export const meta: MetaFunction = () => documentTitle("Customers");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ customers: listCustomersWithLicenseCounts() });
}

export default function AdminCustomers() {
  const { customers } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1200}>
      <Text size="lg">Every account in the portal and how many licenses each holds.</Text>
      <Anchor to="/admin">Jobs that need attention</Anchor>
      <Table.ScrollContainer minWidth={700}>
        <Table striped withTableBorder>
          <Table.Caption>{customers.length} accounts</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col">Company</Table.Th>
              <Table.Th scope="col">Type</Table.Th>
              <Table.Th scope="col">Licenses</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {customers.map((customer) => (
              <Table.Tr key={customer.id}>
                <Table.Td>
                  {customer.firstName} {customer.lastName}
                </Table.Td>
                <Table.Td>{customer.email}</Table.Td>
                <Table.Td>{customer.company}</Table.Td>
                <Table.Td>
                  {isDistributor(customer) ? "Distributor" : "Customer"}
                  {customer.isGKAdmin ? (
                    <Badge ml="xs" variant="light" size="sm">
                      Admin
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td>{customer.licenseCount}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
