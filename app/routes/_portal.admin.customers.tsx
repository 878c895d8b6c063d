import { requireAdmin } from "~/server/accounts/access.server";
import { Anchor, Text } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { adminCreateOrganization } from "~/server/accounts/admin-organizations.server";
import { Button } from "~/ui/button";
import { NativeSelect, TextInput } from "~/ui/inputs";
import { Card, Group } from "~/ui/layout";
import { Link } from "~/ui/link";
import { ORGANIZATION_KIND_NAMES } from "~/domain/access-policy";
import { listOrganizationsForAdmin } from "~/server/accounts/organizations.server";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Customers" };
export const meta = pageMeta("Customers");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ organizations: await listOrganizationsForAdmin() });
}

/** Opens an organization for a customer that sales onboards by hand; its page then invites the first Owner. */
export const action = ({ request }: ActionFunctionArgs) => adminCreateOrganization(request);

type ActionData = { fieldErrors?: Record<string, string>; values?: Record<string, string> };

export default function AdminCustomers() {
  const { organizations } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  return (
    <Stack gap="lg" maw={1200}>
      <Text size="lg">
        Every organization in the portal: its members and how many licenses it holds. A distributor&apos;s end customers
        are listed on its page.
      </Text>
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
              <Table.Th scope="col">End customers</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {organizations.map((organization) => (
              <Table.Tr key={organization.id}>
                <Table.Td>
                  <Link to={`/admin/customers/${organization.id}`} className="gk-link">
                    {organization.name}
                  </Link>
                </Table.Td>
                <Table.Td>{ORGANIZATION_KIND_NAMES[organization.customerType]}</Table.Td>
                <Table.Td>{organization.members}</Table.Td>
                <Table.Td>{organization.pendingInvitations}</Table.Td>
                <Table.Td>{organization.licenses}</Table.Td>
                <Table.Td>
                  {organization.endCustomers > 0 ? (
                    <Link
                      to={`/admin/customers/${organization.id}#end-customers`}
                      className="gk-link"
                      aria-label={`${organization.endCustomers} end customers of ${organization.name}`}
                    >
                      {organization.endCustomers}
                    </Link>
                  ) : organization.customerType === "distributor" ? (
                    0
                  ) : (
                    ""
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Card withBorder padding="md" aria-label="Open an organization">
        <Form method="post" noValidate>
          <AuthenticityTokenInput name="csrf" />
          <Stack gap="sm">
            <Text fw={600}>Open an organization for a customer that sales onboards by hand</Text>
            <Group align="flex-start" gap="sm">
              <TextInput
                id="organization-name"
                name="name"
                label="Organization name"
                required
                defaultValue={actionData?.values?.name}
                error={actionData?.fieldErrors?.name}
                w={320}
              />
              <NativeSelect
                id="organization-type"
                name="customerType"
                label="Type"
                defaultValue={actionData?.values?.customerType ?? "customer"}
                error={actionData?.fieldErrors?.customerType}
                w={200}
              >
                <option value="customer">Customer</option>
                <option value="distributor">Distributor</option>
              </NativeSelect>
            </Group>
            <Group>
              <Button type="submit">Open organization</Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
