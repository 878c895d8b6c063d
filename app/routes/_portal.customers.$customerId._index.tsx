import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { ROLE_NAMES } from "~/domain/access-policy";
import { addressLine, customerUrls, END_CUSTOMER_ROLES } from "~/domain/customers";
import { formatCents, formatDate } from "~/domain/format";
import { customerPageData } from "~/server/resellers/customer-pages.server";
import { postCustomerPeople } from "~/server/resellers/customer-people.server";
import { InviteForm, MembershipRefusal, type InvitationFormData } from "~/ui/account/invite-form";
import { LinkButton } from "~/ui/button";
import { Card, Group, Stack } from "~/ui/layout";
import { licenseTermCells } from "~/ui/license-cells";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { ANCHOR_CLASS, ROW_ACTIONS_CLASS } from "~/ui/plain-parts";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";
import { Anchor, Text, Title } from "~/ui/typography";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Customers" };
export const meta = pageMeta("Customer");

export const loader = ({ request, params }: LoaderFunctionArgs) => customerPageData(request, params.customerId ?? "");

/** The People section's posts (invite, revoke, remove): checked for their own right and this distributor's customer. */
export const action = ({ request, params }: ActionFunctionArgs) => postCustomerPeople(request, params.customerId ?? "");

/** The headings of a table of licenses: id, plan, users, term, and the actions' column when it has one. */
const LicensesHead = ({ actions = false }: { actions?: boolean }) => (
  <Table.Thead>
    <Table.Tr>
      {[
        "License id",
        "Plan",
        "Users",
        "Status",
        "Valid from",
        "Valid to",
        "Days left",
        ...(actions ? ["Actions"] : []),
      ].map((heading) => (
        <Table.Th key={heading} scope="col">
          {heading}
        </Table.Th>
      ))}
    </Table.Tr>
  </Table.Thead>
);

/** A license's plan, and whether it is a trial. */
const planCell = (license: { type: string; planType: string }) => (
  <span key="plan" style={{ textTransform: "capitalize" }}>
    {license.type === "trial" ? `${license.planType} (trial)` : license.planType}
  </span>
);

/** One end customer as its distributor sees it: the record, its licenses, Hubs, renewals and orders, its people. */
export default function Customer() {
  const {
    customer,
    distributorName,
    mayEdit,
    buyTo,
    trialTo,
    licenses,
    heldElsewhere,
    hubs,
    invoices,
    renewals,
    people,
    mayManagePeople,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<InvitationFormData>();
  const address = addressLine(customer.address, customer.country);
  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {customer.name}
        </Title>
        {address ? <Text>{address}</Text> : null}
        {customer.contactName || customer.contactEmail ? (
          <Text>Technical contact: {[customer.contactName, customer.contactEmail].filter(Boolean).join(", ")}</Text>
        ) : null}
        {/* On the left, under the record: the top right corner is where a flash message lies until it fades. */}
        <Group gap="md">
          {buyTo ? <LinkButton to={buyTo}>Buy a license for this customer</LinkButton> : null}
          {trialTo ? (
            <LinkButton to={trialTo} variant="default">
              Start a trial
            </LinkButton>
          ) : null}
          {mayEdit ? (
            <LinkButton to={customerUrls.edit(customer.id)} variant="default">
              Change the record
            </LinkButton>
          ) : null}
          <Anchor to={customerUrls.list} size="sm">
            All customers
          </Anchor>
        </Group>
      </Stack>

      <Stack gap="sm">
        <Title order={3} size="h4">
          Licenses
        </Title>
        {licenses.length === 0 ? (
          <Text>No license has been bought for {customer.name} yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table striped withTableBorder aria-label="Licenses">
              <LicensesHead actions />
              <Table.Tbody>
                {licenses.map((license) => (
                  <Table.Row
                    key={license.id}
                    cells={[
                      license.externalLicenseId,
                      planCell(license),
                      license.nodes,
                      ...licenseTermCells(license),
                      license.downloadUrl ? (
                        <a
                          key="download"
                          className={ANCHOR_CLASS}
                          href={license.downloadUrl}
                          download
                          aria-label={`Download license ${license.externalLicenseId}`}
                        >
                          Download
                        </a>
                      ) : (
                        ""
                      ),
                    ]}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>

      {heldElsewhere.length > 0 ? (
        <Stack gap="sm">
          <Title order={3} size="h4">
            Licenses bought through another distributor
          </Title>
          <Text>
            {customer.name} was the customer of another distributor, which pays for and renews these licenses until they
            end.
          </Text>
          <Table.ScrollContainer minWidth={800}>
            <Table striped withTableBorder aria-label="Licenses bought through another distributor">
              <LicensesHead />
              <Table.Tbody>
                {heldElsewhere.map((license) => (
                  <Table.Row
                    key={license.id}
                    cells={[license.externalLicenseId, planCell(license), license.nodes, ...licenseTermCells(license)]}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      ) : null}

      <Stack gap="sm">
        <Title order={3} size="h4">
          Upcoming renewals
        </Title>
        {renewals.length === 0 ? (
          <Text>Nothing renews or ends.</Text>
        ) : (
          <Table striped withTableBorder aria-label="Upcoming renewals">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">License id</Table.Th>
                <Table.Th scope="col">Date</Table.Th>
                <Table.Th scope="col">What happens</Table.Th>
                <Table.Th scope="col">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {renewals.map((renewal) => (
                <Table.Row
                  key={renewal.subscriptionId}
                  cells={[
                    renewal.externalLicenseId,
                    formatDate(renewal.on),
                    renewal.renews ? "Renews" : "Ends (auto-renew is off)",
                    renewal.renews && renewal.amount !== null ? formatCents(renewal.amount) : "—",
                  ]}
                />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>

      <Stack gap="sm">
        <Title order={3} size="h4">
          Hub deployments
        </Title>
        {hubs.length === 0 ? (
          <Text>No Hub has been made from {customer.name}&apos;s licenses.</Text>
        ) : (
          <Table striped withTableBorder aria-label="Hub deployments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">URL/IP</Table.Th>
                <Table.Th scope="col">Synced</Table.Th>
                <Table.Th scope="col">Users</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {hubs.map((hub) => (
                <Table.Row
                  key={hub.id}
                  cells={[
                    hub.type === "cloud" ? "Cloud" : "On-Premise",
                    hub.url ?? hub.ip ?? "",
                    hub.lastSeen ? formatDate(hub.lastSeen) : "",
                    `${hub.users}/${hub.maxUsers}`,
                  ]}
                />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>

      {invoices ? (
        <Stack gap="sm">
          <Title order={3} size="h4">
            Orders and invoices
          </Title>
          {invoices.length === 0 ? (
            <Text>No invoice yet.</Text>
          ) : (
            <Table striped withTableBorder aria-label="Orders and invoices">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Invoice</Table.Th>
                  <Table.Th scope="col">Date</Table.Th>
                  <Table.Th scope="col">For</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Total</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invoices.map((invoice) => (
                  <Table.Row
                    key={invoice.id}
                    cells={[
                      <a
                        key="pdf"
                        className={ANCHOR_CLASS}
                        href={`/account/invoices/${encodeURIComponent(invoice.id)}/pdf`}
                        aria-label={`Invoice ${invoice.number} as a PDF`}
                      >
                        {invoice.number}
                      </a>,
                      formatDate(invoice.date),
                      invoice.for,
                      invoice.status,
                      formatCents(invoice.total),
                    ]}
                  />
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      ) : null}

      <Stack gap="sm">
        <Title order={3} size="h4">
          People
        </Title>
        <Text size="sm">
          The people of {customer.name} who sign in to the portal: they see its licenses, Hubs and trials, download
          license files and deploy Hubs; buying, changing licenses and paying stay with {distributorName}.
        </Text>
        <MembershipRefusal actionData={actionData} />
        {people.members.length === 0 ? (
          <Text>No one of {customer.name} signs in yet.</Text>
        ) : (
          <Table striped withTableBorder aria-label="People">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Email</Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                {mayManagePeople ? <Table.Th scope="col">Actions</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {people.members.map((person) => (
                <Table.Tr key={person.userId}>
                  <Table.Td>{person.name}</Table.Td>
                  <Table.Td>{person.email}</Table.Td>
                  <Table.Td>{ROLE_NAMES[person.role]}</Table.Td>
                  {mayManagePeople ? (
                    <Table.Td>
                      <PeopleButton
                        field={{ userId: person.userId }}
                        intent="remove"
                        label={`Remove ${person.email}`}
                        text="Remove"
                      />
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {people.invitations.length > 0 ? (
          <Table striped withTableBorder aria-label="Open invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Invited</Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                <Table.Th scope="col">Link valid until</Table.Th>
                {mayManagePeople ? <Table.Th scope="col">Actions</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {people.invitations.map((invitation) => (
                <Table.Tr key={invitation.id}>
                  <Table.Td>{invitation.email}</Table.Td>
                  <Table.Td>{ROLE_NAMES[invitation.role]}</Table.Td>
                  <Table.Td>{formatDate(invitation.expiresAt)}</Table.Td>
                  {mayManagePeople ? (
                    <Table.Td>
                      <PeopleButton
                        field={{ invitationId: invitation.id }}
                        intent="revoke"
                        label={`Revoke the invitation to ${invitation.email}`}
                        text="Revoke"
                      />
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
        {mayManagePeople ? (
          <InviteForm
            title={`Invite someone of ${customer.name}`}
            defaultRole="technical_contact"
            roles={END_CUSTOMER_ROLES}
            actionData={actionData}
          />
        ) : null}
      </Stack>

      <Card withBorder padding="md" aria-label="Moving this customer">
        <Text size="sm">
          {customer.name} is managed by {distributorName}. To move it to another reseller, ask{" "}
          <Anchor to="/support">GateKeeper support</Anchor>: only GateKeeper staff move a customer.
        </Text>
      </Card>
    </Stack>
  );
}

/** One row's post of the People section: a plain button, drawn by the root stylesheet. */
function PeopleButton({
  field,
  intent,
  label,
  text,
}: {
  field: Record<string, string>;
  intent: string;
  label: string;
  text: string;
}) {
  return (
    <Form method="post" className={ROW_ACTIONS_CLASS}>
      <AuthenticityTokenInput name="csrf" />
      {Object.entries(field).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" name="intent" value={intent} className="gk-link gk-link-button" aria-label={label}>
        {text}
      </button>
    </Form>
  );
}

export const ErrorBoundary = PageErrorBoundary;
