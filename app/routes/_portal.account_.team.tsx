import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import type { ReactNode } from "react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { formatDate } from "~/domain/format";
import { MEMBERS_PER_PAGE, pageCount, requestedPage } from "~/domain/pagination";
import { ROLE_DESCRIPTIONS, ROLE_NAMES, ROLES } from "~/domain/access-policy";
import { teamAction, teamPage } from "~/server/accounts/team.server";
import { Button } from "~/ui/button";
import { NativeSelect } from "~/ui/inputs";
import { InviteForm, MembershipRefusal, ROLE_OPTIONS, type InvitationFormData } from "~/ui/account/invite-form";
import { Card, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { Link } from "~/ui/link";
import { ANCHOR_CLASS, ROW_ACTIONS_CLASS } from "~/ui/plain-parts";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";
import { Text, Title } from "~/ui/typography";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Team" };
export const meta = pageMeta("Team");

const TEAM = "/account/team";
/**
 * The team page's address with the members' page and the invitations' page (each left out when it is the first),
 * and the member whose role and membership the Owner is managing.
 */
function teamHref(page: number, invitationsPage: number, manage?: string) {
  const query = new URLSearchParams({
    ...(page > 1 ? { page: String(page) } : {}),
    ...(invitationsPage > 1 ? { invitations: String(invitationsPage) } : {}),
    ...(manage ? { manage } : {}),
  }).toString();
  return query ? `${TEAM}?${query}` : TEAM;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const page = requestedPage(search.get("page"));
  const invitationsPage = requestedPage(search.get("invitations"));
  if (page === null || invitationsPage === null) throw redirect(TEAM);
  const { member, mayManage, total, members, invitationTotal, invitations } = await teamPage(request, {
    page,
    invitationsPage,
    pageSize: MEMBERS_PER_PAGE,
  });
  const pages = pageCount(total, MEMBERS_PER_PAGE);
  const invitationPages = pageCount(invitationTotal, MEMBERS_PER_PAGE);
  if (page > pages || (invitationTotal > 0 && invitationsPage > invitationPages))
    throw redirect(teamHref(Math.min(page, pages), Math.min(invitationsPage, invitationPages)));
  const manage = mayManage ? search.get("manage") : null;
  const managing = members.find((row) => row.userId === manage) ?? null;
  return json({
    managing: managing && {
      userId: managing.userId,
      name: `${managing.firstName} ${managing.lastName}`.trim(),
      role: managing.role,
    },
    organizationName: member.organization.name,
    me: member.user.id,
    mayManage,
    page,
    pages,
    total,
    invitationsPage,
    invitationPages,
    invitationTotal,
    members: members.map((row) => ({
      ...row,
      lastSignedInAt: row.lastSignedInAt?.toISOString() ?? null,
      joinedAt: row.joinedAt.toISOString(),
    })),
    invitations: invitations.map((invitation) => ({ ...invitation, expiresAt: invitation.expiresAt.toISOString() })),
  });
}

export const action = ({ request }: ActionFunctionArgs) => teamAction(request);

export default function Team() {
  const {
    managing,
    organizationName,
    me,
    mayManage,
    members,
    invitations,
    page,
    pages,
    total,
    invitationsPage,
    invitationPages,
    invitationTotal,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<InvitationFormData>();
  // Each member's Manage link is the page's own address, built once, with `manage=` and the member's id added: the
  // same address teamHref gives, without building the page's whole query again for every row.
  const base = teamHref(page, invitationsPage);
  const manageHref = (userId: string) =>
    `${base}${base.includes("?") ? "&" : "?"}${new URLSearchParams({ manage: userId }).toString()}`;
  return (
    <Stack gap="lg" maw={1100}>
      <Text size="lg">
        The people of {organizationName} who sign in to the portal, and what each one&apos;s role lets them do.
      </Text>
      <MembershipRefusal actionData={actionData} />
      <Table.ScrollContainer minWidth={800}>
        <Table striped withTableBorder aria-label="Members">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col">Role</Table.Th>
              <Table.Th scope="col">Last sign-in</Table.Th>
              {mayManage ? <Table.Th scope="col">Actions</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((member) => {
              const name = `${member.firstName} ${member.lastName}`.trim();
              const cells: ReactNode[] = [
                member.userId === me ? `${name} (you)` : name,
                member.email,
                ROLE_NAMES[member.role],
                member.lastSignedInAt ? formatDate(member.lastSignedInAt) : "Never",
              ];
              if (mayManage)
                cells.push(
                  <Link
                    key="manage"
                    className={ANCHOR_CLASS}
                    to={manageHref(member.userId)}
                    aria-label={`Manage ${name}`}
                    preventScrollReset
                  >
                    Manage
                  </Link>,
                );
              return <Table.Row key={member.userId} cells={cells} />;
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {managing ? (
        <Card withBorder padding="md" aria-label={`Manage ${managing.name}`}>
          <Stack gap="sm">
            <Title order={2} size="h4">
              {managing.name}
              {managing.userId === me ? " (you)" : ""}
            </Title>
            <Group gap="md" align="flex-end">
              <Form method="post" action={teamHref(page, invitationsPage)}>
                <AuthenticityTokenInput name="csrf" />
                <input type="hidden" name="userId" value={managing.userId} />
                <Group gap="xs" align="flex-end" wrap="nowrap">
                  <NativeSelect id="member-role" name="role" label="Role" defaultValue={managing.role} w={220}>
                    {ROLE_OPTIONS}
                  </NativeSelect>
                  <Button type="submit" name="intent" value="role" variant="default">
                    Change role
                  </Button>
                </Group>
              </Form>
              {managing.userId === me ? null : (
                <Form method="post" action={teamHref(page, invitationsPage)}>
                  <AuthenticityTokenInput name="csrf" />
                  <input type="hidden" name="userId" value={managing.userId} />
                  <Button
                    type="submit"
                    name="intent"
                    value="remove"
                    variant="default"
                    aria-label={`Remove ${managing.name}`}
                  >
                    Remove from {organizationName}
                  </Button>
                </Form>
              )}
            </Group>
          </Stack>
        </Card>
      ) : null}
      <PageLinks
        page={page}
        pageCount={pages}
        pageSize={MEMBERS_PER_PAGE}
        total={total}
        href={(to) => teamHref(to, invitationsPage)}
        label="Members pages"
      />
      {mayManage ? <InviteForm title="Invite someone" defaultRole="technical_contact" actionData={actionData} /> : null}
      {mayManage && invitations.length > 0 ? (
        <Stack gap="sm">
          <Title order={2} size="h4">
            Pending invitations
          </Title>
          <Table striped withTableBorder aria-label="Pending invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Email</Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                <Table.Th scope="col">Invited by</Table.Th>
                <Table.Th scope="col">Link valid until</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.map((invitation) => (
                <Table.Tr key={invitation.id}>
                  <Table.Td>{invitation.email}</Table.Td>
                  <Table.Td>{ROLE_NAMES[invitation.role]}</Table.Td>
                  <Table.Td>{invitation.invitedBy}</Table.Td>
                  <Table.Td>{formatDate(invitation.expiresAt)}</Table.Td>
                  <Table.Td>
                    {/* Plain buttons, drawn by the root stylesheet: a page of them costs little to render. */}
                    <Form method="post" className={ROW_ACTIONS_CLASS}>
                      <AuthenticityTokenInput name="csrf" />
                      <input type="hidden" name="invitationId" value={invitation.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="resend"
                        className="gk-link gk-link-button"
                        aria-label={`Send the invitation to ${invitation.email} again`}
                      >
                        Send again
                      </button>
                      <button
                        type="submit"
                        name="intent"
                        value="revoke"
                        className="gk-link gk-link-button"
                        aria-label={`Revoke the invitation to ${invitation.email}`}
                      >
                        Revoke
                      </button>
                    </Form>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <PageLinks
            page={invitationsPage}
            pageCount={invitationPages}
            pageSize={MEMBERS_PER_PAGE}
            total={invitationTotal}
            href={(to) => teamHref(page, to)}
            label="Pending invitations pages"
          />
        </Stack>
      ) : null}
      <Card withBorder padding="md" aria-label="Roles">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Roles
          </Title>
          {ROLES.map((role) => (
            <Text key={role} size="sm">
              <strong>{ROLE_NAMES[role]}:</strong> {ROLE_DESCRIPTIONS[role]}
            </Text>
          ))}
        </Stack>
      </Card>
      <Form method="post">
        <AuthenticityTokenInput name="csrf" />
        <Button type="submit" name="intent" value="leave" variant="default">
          Leave {organizationName}
        </Button>
      </Form>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
