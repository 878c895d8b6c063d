import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ORGANIZATION_KIND_NAMES } from "~/domain/access-policy";
import { formatCents, formatDate } from "~/domain/format";
import { JOB_STATUS_NAMES } from "~/domain/jobs";
import { subscriptionStatusLabel } from "~/domain/renewals";
import { ROLE_NAMES } from "~/domain/access-policy";
import { adminInvite, adminOrganizationPage } from "~/server/accounts/admin-organizations.server";
import { recentRequestsOf } from "~/server/operations/index.server";
import { resellerSection } from "~/server/resellers/staff.server";
import { END_CUSTOMERS_PER_PAGE } from "~/domain/pagination";
import { MoveCustomerForm } from "~/ui/admin/move-customer-form";
import { PageLinks } from "~/ui/page-links";
import { ColumnsTable } from "~/ui/columns-table";
import { InviteForm, type InvitationFormData } from "~/ui/account/invite-form";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Anchor, Text, Title } from "~/ui/typography";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Customer" };
export const meta = pageMeta("Customer");

/**
 * One organization as an administrator sees it, with the invitation of its first Owner (or anyone); a distributor
 * with its end customers, a page at a time, and an end customer with its distributor and the move to another.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const page = await adminOrganizationPage(request, params.organizationId ?? "");
  const resellers = await resellerSection(request, page.organization);
  return json({
    recentRequests: recentRequestsOf(page.organization.id),
    resellers,
    organization: {
      id: page.organization.id,
      name: page.organization.name,
      type: ORGANIZATION_KIND_NAMES[page.organization.customerType],
      billingCustomerId: page.organization.billingCustomerId,
    },
    memberTotal: page.memberTotal,
    members: page.members.map((member) => ({
      ...member,
      id: member.userId,
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
      plan: subscription.planName,
      quantity: subscription.planQuantity,
      status: subscriptionStatusLabel(subscription.status),
      dues: subscription.totalDues,
    })),
    jobs: page.jobs.map((job) => ({
      id: job.id,
      what: job.error?.title ?? job.kind,
      status: JOB_STATUS_NAMES[job.status],
      message: job.error?.message ?? "",
      updatedAt: job.updatedAt.toISOString(),
    })),
  });
}

export const action = ({ request, params }: ActionFunctionArgs) => adminInvite(request, params.organizationId ?? "");

export default function AdminOrganization() {
  const { organization, resellers, memberTotal, members, invitations, licenses, subscriptions, jobs, recentRequests } =
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
        {resellers?.kind === "end customer" ? (
          <>
            {" · end customer of "}
            <Anchor to={`/admin/customers/${resellers.reseller.id}`}>{resellers.reseller.name}</Anchor>
          </>
        ) : null}
      </Text>
      <Text size="sm">
        {recentRequests.url ? (
          <Anchor to={recentRequests.url}>Recent requests of this organization</Anchor>
        ) : (
          "Recent requests of this organization"
        )}
        : in the log, the lines with <code>{recentRequests.query}</code>.
      </Text>
      {resellers?.kind === "end customer" && resellers.choices ? (
        <MoveCustomerForm
          customerId={organization.id}
          resellerName={resellers.reseller.name}
          choices={resellers.choices}
        />
      ) : null}
      {resellers?.kind === "distributor" ? (
        <section id="end-customers">
          <ColumnsTable
            title={`End customers (${resellers.total})`}
            label="End customers"
            empty="No end customer."
            rows={resellers.customers}
            columns={[
              {
                header: "End customer",
                cell: (customer) => <Anchor to={`/admin/customers/${customer.id}`}>{customer.name}</Anchor>,
              },
              { header: "Country", cell: (customer) => customer.country },
              { header: "Licenses", cell: (customer) => customer.licenses },
            ]}
          />
          <PageLinks
            page={resellers.page}
            pageCount={resellers.pages}
            pageSize={END_CUSTOMERS_PER_PAGE}
            total={resellers.total}
            href={(to) => `/admin/customers/${organization.id}?page=${to}#end-customers`}
            label="End customers pages"
          />
        </section>
      ) : null}
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
      <ColumnsTable
        title={`Members (${memberTotal})`}
        label="Members"
        empty="No member yet."
        rows={members}
        columns={[
          { header: "Name", cell: (member) => `${member.firstName} ${member.lastName}`.trim() },
          { header: "Email", cell: (member) => member.email },
          { header: "Role", cell: (member) => ROLE_NAMES[member.role] },
          {
            header: "Last sign-in",
            cell: (member) => (member.lastSignedInAt ? formatDate(member.lastSignedInAt) : "Never"),
          },
        ]}
      />
      <ColumnsTable
        title="Pending invitations"
        label="Pending invitations"
        empty="None."
        rows={invitations}
        columns={[
          { header: "Email", cell: (invitation) => invitation.email },
          { header: "Role", cell: (invitation) => ROLE_NAMES[invitation.role] },
          { header: "Invited by", cell: (invitation) => invitation.invitedBy },
          { header: "Link valid until", cell: (invitation) => formatDate(invitation.expiresAt) },
        ]}
      />
      <ColumnsTable
        title="Licenses (newest 50)"
        label="Licenses"
        empty="No license."
        rows={licenses}
        columns={[
          { header: "License id", cell: (license) => license.externalLicenseId },
          { header: "Organization", cell: (license) => license.name },
          { header: "Users", cell: (license) => license.nodes },
          { header: "Valid to", cell: (license) => formatDate(license.validTo) },
        ]}
      />
      <ColumnsTable
        title="Subscriptions"
        label="Subscriptions"
        empty="No subscription."
        rows={subscriptions}
        columns={[
          { header: "Subscription", cell: (subscription) => subscription.id },
          { header: "Plan", cell: (subscription) => subscription.plan },
          { header: "Users", cell: (subscription) => subscription.quantity },
          { header: "Status", cell: (subscription) => subscription.status },
          { header: "Due", cell: (subscription) => formatCents(subscription.dues) },
        ]}
      />
      <ColumnsTable
        title="Jobs that need attention"
        label="Jobs that need attention"
        empty="None."
        rows={jobs}
        columns={[
          { header: "Job", cell: (job) => <code>{job.id}</code> },
          { header: "What", cell: (job) => job.what },
          { header: "Status", cell: (job) => job.status },
          { header: "What it says", cell: (job) => job.message },
          { header: "Updated", cell: (job) => formatDate(job.updatedAt) },
        ]}
      />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
