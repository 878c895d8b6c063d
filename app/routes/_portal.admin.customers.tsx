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
import { searchOrganizationsForAdmin } from "~/server/accounts/organizations.server";
import { ADMIN_CUSTOMERS_PER_PAGE, pageCount, requestedPage } from "~/domain/pagination";
import { PageLinks } from "~/ui/page-links";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";
import { SearchForm } from "~/ui/search-form";
import { Table } from "~/ui/table";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Customers" };
export const meta = pageMeta("Customers");

/** A page of the organizations (`?page=`), or of those a search (`?q=`) finds by name or a member's address. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const query = params.get("q")?.trim().slice(0, 200) ?? "";
  const page = requestedPage(params.get("page"));
  if (page === null) throw new Response("There is no such page.", { status: 404 });
  const { organizations, total } = await searchOrganizationsForAdmin(query, page);
  return json({ query, page, total, organizations });
}

/** Opens an organization for a customer that sales onboards by hand; its page then invites the first Owner. */
export const action = ({ request }: ActionFunctionArgs) => adminCreateOrganization(request);

type ActionData = { fieldErrors?: Record<string, string>; values?: Record<string, string> };

export default function AdminCustomers() {
  const { query, page, total, organizations } = useLoaderData<typeof loader>();
  const href = (n: number) =>
    `/admin/customers?${new URLSearchParams({ ...(query ? { q: query } : {}), page: String(n) })}`;
  const actionData = useActionData<ActionData>();
  return (
    <Stack gap="lg" maw={1200}>
      <Text size="lg">
        Every organization in the portal: its members and how many licenses it holds. A distributor&apos;s end customers
        are listed on its page.
      </Text>
      <Anchor to="/admin">Jobs that need attention</Anchor>
      <SearchForm
        name="Customers"
        label="Organization name or a member's email"
        description="The start of it; case and accents do not matter."
        query={query}
        allTo="/admin/customers"
        width={360}
      />
      <Table.ScrollContainer minWidth={700}>
        <Table striped withTableBorder>
          <Table.Caption>{query ? `${total} organizations match “${query}”` : `${total} organizations`}</Table.Caption>
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
      <PageLinks
        page={page}
        pageCount={pageCount(total, ADMIN_CUSTOMERS_PER_PAGE)}
        pageSize={ADMIN_CUSTOMERS_PER_PAGE}
        total={total}
        href={href}
        label="Customers pages"
      />
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
