import type { ReactNode } from "react";
import {
  json,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { isDistributor } from "~/domain/customers";
import { formatCents, formatDate } from "~/domain/format";
import { ROLE_NAMES } from "~/domain/roles";
import { adminInvite, adminOrganizationPage } from "~/server/admin-organizations.server";
import { InviteForm, type InvitationFormData } from "~/ui/account/invite-form";
import { Stack } from "~/ui/layout";
import { documentTitle, PageErrorBoundary } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";
import { Anchor, Text, Title } from "~/ui/typography";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Customer" };
export const meta: MetaFunction = () => documentTitle("Customer");

/** One organization as an administrator sees it, with the invitation of its first Owner (or anyone). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const page = await adminOrganizationPage(request, params.organizationId ?? "");
  return json({
    organization: {
      name: page.organization.name,
      type: isDistributor(page.organization) ? "Distributor" : "Customer",
      billingCustomerId: page.organization.billingCustomerId,
    },
    memberTotal: page.memberTotal,
    members: page.members.map((member) => ({
      ...member,
      lastSignedInAt: member.lastSignedInAt?.toISOString() ?? null,
    })),
    invitations: page.invitations.map((invitation) => ({
      ...invitation,
      expiresAt: invitation.expiresAt.toISOString(),
    })),
    licenses: page.licenses.map((license) => ({
      id: license.id,
      externalLicenseId: license.externalLicenseId,
      name: license.name,
      nodes: license.nodes,
      validTo: license.validTo.toISOString(),
    })),
    subscriptions: page.subscriptions.map((subscription) => ({
      id: subscription.id,
      planId: subscription.planId,
      quantity: subscription.planQuantity,
      status: subscription.status,
      dues: subscription.totalDues,
    })),
    jobs: page.jobs.map((job) => ({
      id: job.id,
      kind: job.kind,
      status: job.status,
      message: job.error?.message ?? "",
    })),
  });
}

export const action = ({ request, params }: ActionFunctionArgs) => adminInvite(request, params.organizationId ?? "");

export default function AdminOrganization() {
  const { organization, memberTotal, members, invitations, licenses, subscriptions, jobs } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<InvitationFormData>();
  const hasOwner = members.some((member) => member.role === "owner");
  return (
    <Stack gap="lg" maw={1200}>
      <Anchor to="/admin/customers">All customers</Anchor>
      <Title order={2}>{organization.name}</Title>
      <Text>
        {organization.type}
        {organization.billingCustomerId ? ` · billing customer ${organization.billingCustomerId}` : ""}
      </Text>
      {actionData?.formError ? (
        <Text c="red.9" role="alert">
          {actionData.formError}
        </Text>
      ) : null}
      <InviteForm
        title={hasOwner ? "Invite a member" : "Invite the first Owner"}
        defaultRole="owner"
        actionData={actionData}
      />
      <Section title={`Members (${memberTotal})`} empty="No member yet." rows={members.length}>
        <Table striped withTableBorder aria-label="Members">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col">Role</Table.Th>
              <Table.Th scope="col">Last sign-in</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((member) => (
              <Table.Tr key={member.userId}>
                <Table.Td>{`${member.firstName} ${member.lastName}`.trim()}</Table.Td>
                <Table.Td>{member.email}</Table.Td>
                <Table.Td>{ROLE_NAMES[member.role]}</Table.Td>
                <Table.Td>{member.lastSignedInAt ? formatDate(member.lastSignedInAt) : "Never"}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Section>
      <Section title="Pending invitations" empty="None." rows={invitations.length}>
        <Table striped withTableBorder aria-label="Pending invitations">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col">Role</Table.Th>
              <Table.Th scope="col">Invited by</Table.Th>
              <Table.Th scope="col">Link valid until</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invitations.map((invitation) => (
              <Table.Tr key={invitation.id}>
                <Table.Td>{invitation.email}</Table.Td>
                <Table.Td>{ROLE_NAMES[invitation.role]}</Table.Td>
                <Table.Td>{invitation.invitedBy}</Table.Td>
                <Table.Td>{formatDate(invitation.expiresAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Section>
      <Section title="Licenses (newest 50)" empty="No license." rows={licenses.length}>
        <Table striped withTableBorder aria-label="Licenses">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">License id</Table.Th>
              <Table.Th scope="col">Organization</Table.Th>
              <Table.Th scope="col">Users</Table.Th>
              <Table.Th scope="col">Valid to</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {licenses.map((license) => (
              <Table.Tr key={license.id}>
                <Table.Td>{license.externalLicenseId}</Table.Td>
                <Table.Td>{license.name}</Table.Td>
                <Table.Td>{license.nodes}</Table.Td>
                <Table.Td>{formatDate(license.validTo)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Section>
      <Section title="Subscriptions" empty="No subscription." rows={subscriptions.length}>
        <Table striped withTableBorder aria-label="Subscriptions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Subscription</Table.Th>
              <Table.Th scope="col">Plan</Table.Th>
              <Table.Th scope="col">Users</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Due</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {subscriptions.map((subscription) => (
              <Table.Tr key={subscription.id}>
                <Table.Td>{subscription.id}</Table.Td>
                <Table.Td>{subscription.planId}</Table.Td>
                <Table.Td>{subscription.quantity}</Table.Td>
                <Table.Td>{subscription.status}</Table.Td>
                <Table.Td>{formatCents(subscription.dues)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Section>
      <Section title="Jobs that need attention" empty="None." rows={jobs.length}>
        <Table striped withTableBorder aria-label="Jobs that need attention">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Job</Table.Th>
              <Table.Th scope="col">Kind</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">What it says</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {jobs.map((job) => (
              <Table.Tr key={job.id}>
                <Table.Td>{job.id}</Table.Td>
                <Table.Td>{job.kind}</Table.Td>
                <Table.Td>{job.status}</Table.Td>
                <Table.Td>{job.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Section>
    </Stack>
  );
}

function Section({
  title,
  empty,
  rows,
  children,
}: {
  title: string;
  empty: string;
  rows: number;
  children: ReactNode;
}) {
  return (
    <Stack gap="xs">
      <Title order={3}>{title}</Title>
      {rows === 0 ? <Text>{empty}</Text> : <Table.ScrollContainer minWidth={700}>{children}</Table.ScrollContainer>}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
