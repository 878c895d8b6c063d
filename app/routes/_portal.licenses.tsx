import { Badge } from "@mantine-parts/components/Badge/Badge.mjs";
import { Button } from "@mantine-parts/components/Button/Button.mjs";
import { Group } from "@mantine-parts/components/Group/Group.mjs";
import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { Table } from "@mantine-parts/components/Table/Table.mjs";
import { Text } from "@mantine-parts/components/Text/Text.mjs";
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { formatDate } from "~/domain/format";
import { shortLicenseKey } from "~/domain/license-status";
import { requireUser } from "~/server/auth.server";
import { listLicenses } from "~/server/licenses.server";
import { documentTitle, PageErrorBoundary } from "~/ui/page";
import { DATA_STYLES, FORM_STYLES } from "~/ui/stylesheets";
import { ACCESSIBLE_GREEN } from "~/ui/theme";

export const links: LinksFunction = () => [FORM_STYLES, DATA_STYLES];

export const handle = { title: "Licenses" };
export const meta: MetaFunction = () => documentTitle("Licenses");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({
    licenses: listLicenses(user.id).map((license) => ({
      id: license.id,
      key: shortLicenseKey(license.licenseCode),
      externalLicenseId: license.externalLicenseId,
      name: license.name,
      nodes: license.nodes,
      planType: license.planType,
      type: license.type,
      status: license.status,
      validFrom: license.validFrom.toISOString(),
      validTo: license.validTo.toISOString(),
      daysLeft: license.daysLeft,
    })),
  });
}

export default function Licenses() {
  const { licenses } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between">
        <Text size="lg">Your GateKeeper licenses. Upload a license file to your Hub to activate it.</Text>
        <Button component={Link} to="/store">
          Buy a license
        </Button>
      </Group>
      {licenses.length === 0 ? (
        <Text>You have no licenses yet. Buy one in the Store or start a free trial.</Text>
      ) : (
        <Table.ScrollContainer minWidth={800}>
          <Table striped highlightOnHover withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">License key</Table.Th>
                <Table.Th scope="col">License id</Table.Th>
                <Table.Th scope="col">Organization</Table.Th>
                <Table.Th scope="col">Plan</Table.Th>
                <Table.Th scope="col">Users</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Valid from</Table.Th>
                <Table.Th scope="col">Valid to</Table.Th>
                <Table.Th scope="col">Days left</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {licenses.map((license) => (
                <Table.Tr key={license.id}>
                  <Table.Td>
                    <code>{license.key}</code>
                  </Table.Td>
                  <Table.Td>{license.externalLicenseId}</Table.Td>
                  <Table.Td>{license.name}</Table.Td>
                  <Table.Td tt="capitalize">{license.planType}</Table.Td>
                  <Table.Td>{license.nodes}</Table.Td>
                  <Table.Td>
                    <Badge color={license.status === "active" ? ACCESSIBLE_GREEN : "red.9"} variant="filled">
                      {license.status === "active" ? "Active" : "Expired"}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatDate(license.validFrom)}</Table.Td>
                  <Table.Td>{formatDate(license.validTo)}</Table.Td>
                  <Table.Td>{license.daysLeft}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
