import { Card, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/server/auth.server";
import { documentTitle, PageErrorBoundary } from "~/ui/page";

export const handle = { title: "Account" };
export const meta: MetaFunction = () => documentTitle("Account");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({
    profile: {
      name: `${user.firstName} ${user.lastName}`,
      email: user.email,
      company: user.company,
      phone: user.phone,
      accountType: user.customerType === "distributor" ? "Distributor (reseller)" : "Customer",
    },
  });
}

export default function Account() {
  const { profile } = useLoaderData<typeof loader>();
  const rows: [string, string][] = [
    ["Name", profile.name],
    ["Email", profile.email],
    ["Company", profile.company || "Not set"],
    ["Phone", profile.phone || "Not set"],
    ["Account type", profile.accountType],
  ];
  return (
    <Stack gap="lg" maw={1100}>
      <Text size="lg">Your profile, and where your card, billing profile and shipping address are kept.</Text>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder padding="lg" radius="md" component="section">
          <Title order={2} size="h4" mb="sm">
            Profile
          </Title>
          <Table>
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th scope="row" w="40%">
                    {label}
                  </Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder padding="lg" radius="md" component="section">
          <Title order={2} size="h4" mb="sm">
            Billing
          </Title>
          <Text size="sm">
            Your payment card, billing profile and shipping address are used for license purchases, upgrades and
            hardware orders. To change them before the billing pages open here, contact support.
          </Text>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
