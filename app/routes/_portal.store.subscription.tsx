import { Text } from "~/ui/typography";
import { portalNow } from "~/server/billing/index.server";
import { json, redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { formatDate } from "~/domain/format";
import { updateStepUrl } from "~/domain/license-update";
import { LICENSES_PER_PAGE, pageCount, requestedPage } from "~/domain/pagination";
import { requireMember } from "~/server/accounts/access.server";
import {
  hasRecurringLicense,
  subscriptionOfLicense,
  upgradableLicensePage,
} from "~/server/subscriptions/licenses.server";
import { Button, LinkButton } from "~/ui/button";
import { Radio } from "~/ui/inputs";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { RouteModal } from "~/ui/route-dialogs";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";

/**
 * The Subscription button's first stop: a user
 * with recurring licenses is asked whether they want a new one or to upgrade; anyone else goes straight
 * to the wizard. Upgrading shows the notice and the picker of existing licenses (a GET form, so a chosen
 * license is a plain link into its update wizard).
 */

export const links: LinksFunction = () => FORM_STYLES;

const UPGRADE_URL = "/store/subscription?choice=upgrade";
const pageHref = (page: number) => (page > 1 ? `${UPGRADE_URL}&page=${page}` : UPGRADE_URL);
const CHOOSE_LICENSE = "Please choose the license to upgrade.";

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "purchase");
  if (!(await hasRecurringLicense(member.organization.id))) throw redirect("/store/subscribe/plan");
  const search = new URL(request.url).searchParams;
  if (search.get("choice") !== "upgrade") return json({ upgrade: null });
  const chosen = search.get("license");
  const subscriptionId = chosen ? await subscriptionOfLicense(member.organization.id, chosen) : null;
  if (subscriptionId) throw redirect(updateStepUrl(subscriptionId, "product"));
  const page = requestedPage(search.get("page")) ?? 1;
  const { total, licenses } = await upgradableLicensePage(
    member.organization.id,
    page,
    LICENSES_PER_PAGE,
    await portalNow(),
  );
  return json({
    upgrade: {
      page,
      pages: pageCount(total, LICENSES_PER_PAGE),
      total,
      // Sent without a choice, or with one that is not the user's recurring license: asked again.
      error: search.has("pick") ? CHOOSE_LICENSE : null,
      licenses: licenses.map(({ externalLicenseId, name, planType, nodes, validTo }) => ({
        externalLicenseId,
        name,
        planType,
        nodes,
        validTo: validTo.toISOString(),
      })),
    },
  });
}

export default function SubscriptionChoice() {
  const { upgrade } = useLoaderData<typeof loader>();
  return (
    <RouteModal title="You already have recurring licenses." closeTo="/store">
      {upgrade ? (
        <Stack>
          <Alert color="gatekeeper" variant="light">
            To add users to a license, or move it to a higher plan, use the &apos;Add Users&apos; button on the Licenses
            page.
          </Alert>
          <Form method="get" action="/store/subscription">
            <input type="hidden" name="choice" value="upgrade" />
            <input type="hidden" name="pick" value="1" />
            <Stack gap="sm">
              <Table withTableBorder striped>
                <Table.Caption>Or choose the license to upgrade here</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">License id</Table.Th>
                    <Table.Th scope="col">Organization</Table.Th>
                    <Table.Th scope="col">Plan</Table.Th>
                    <Table.Th scope="col">Users</Table.Th>
                    <Table.Th scope="col">Valid to</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {upgrade.licenses.map((license) => (
                    <Table.Tr key={license.externalLicenseId}>
                      <Table.Td>
                        <Radio name="license" value={license.externalLicenseId} label={license.externalLicenseId} />
                      </Table.Td>
                      <Table.Td>{license.name}</Table.Td>
                      <Table.Td tt="capitalize">{license.planType}</Table.Td>
                      <Table.Td>{license.nodes}</Table.Td>
                      <Table.Td>{formatDate(license.validTo)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {upgrade.error ? (
                <Text size="sm" c="red.9" role="alert">
                  {upgrade.error}
                </Text>
              ) : null}
              <PageLinks
                page={upgrade.page}
                pageCount={upgrade.pages}
                pageSize={LICENSES_PER_PAGE}
                total={upgrade.total}
                href={pageHref}
                label="Recurring licenses pages"
              />
              <Group justify="flex-end">
                <LinkButton to="/licenses" variant="default">
                  Add users to an existing license
                </LinkButton>
                <Button type="submit">Upgrade this license</Button>
              </Group>
            </Stack>
          </Form>
        </Stack>
      ) : (
        <Stack>
          <Text>Do you want to buy another recurring license, or upgrade one you have?</Text>
          <Group justify="flex-end">
            <LinkButton to={UPGRADE_URL} variant="default">
              No, I&apos;ll upgrade existing recurring license
            </LinkButton>
            <LinkButton to="/store/subscribe/plan">Yes, I want a new recurring license</LinkButton>
          </Group>
        </Stack>
      )}
    </RouteModal>
  );
}

export const ErrorBoundary = PageErrorBoundary;
