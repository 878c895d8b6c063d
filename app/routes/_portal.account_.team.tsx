import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { formatDate } from "~/domain/format";
import { MEMBERS_PER_PAGE, pageCount, requestedPage } from "~/domain/pagination";
import { ROLE_DESCRIPTIONS, ROLE_NAMES, ROLES } from "~/domain/roles";
import { teamAction, teamPage } from "~/server/team.server";
import { Button } from "~/ui/button";
import { NativeSelect } from "~/ui/inputs";
import { InviteForm, ROLE_OPTIONS, type InvitationFormData } from "~/ui/account/invite-form";
import { Alert, Card, Group, Stack } from "~/ui/layout";
import { documentTitle, PageErrorBoundary } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Table } from "~/ui/table";
import { Text, Title } from "~/ui/typography";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Team" };
export const meta: MetaFunction = () => documentTitle("Team");

const TEAM = "/account/team";
const pageHref = (page: number) => (page > 1 ? `${TEAM}?page=${page}` : TEAM);

export async function loader({ request }: LoaderFunctionArgs) {
  const page = requestedPage(new URL(request.url).searchParams.get("page"));
  if (page === null) throw redirect(pageHref(1));
  const { member, mayManage, total, members, invitations } = await teamPage(request, page, MEMBERS_PER_PAGE);
  const pages = pageCount(total, MEMBERS_PER_PAGE);
  if (page > pages) throw redirect(pageHref(pages));
  return json({
    organizationName: member.organization.name,
    me: member.user.id,
    mayManage,
    page,
    pages,
    total,
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
  const { organizationName, me, mayManage, members, invitations, page, pages, total } = useLoaderData<typeof loader>();
  const actionData = useActionData<InvitationFormData>();
  return (
    <Stack gap="lg" maw={1100}>
      <Text size="lg">
        The people of {organizationName} who sign in to the portal, and what each one&apos;s role lets them do.
      </Text>
      {actionData?.formError ? (
        <Alert color="red" role="alert">
          {actionData.formError}
        </Alert>
      ) : null}
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
              return (
                <Table.Tr key={member.userId}>
                  <Table.Td>
                    {name}
                    {member.userId === me ? " (you)" : ""}
                  </Table.Td>
                  <Table.Td>{member.email}</Table.Td>
                  <Table.Td>{ROLE_NAMES[member.role]}</Table.Td>
                  <Table.Td>{member.lastSignedInAt ? formatDate(member.lastSignedInAt) : "Never"}</Table.Td>
                  {mayManage ? (
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Form method="post">
                          <AuthenticityTokenInput name="csrf" />
                          <input type="hidden" name="userId" value={member.userId} />
                          <Group gap="xs" wrap="nowrap">
                            <NativeSelect
                              id={`role-${member.userId}`}
                              name="role"
                              aria-label={`Role of ${name}`}
                              defaultValue={member.role}
                            >
                              {ROLE_OPTIONS}
                            </NativeSelect>
                            <Button type="submit" name="intent" value="role" variant="default" size="xs">
                              Change role
                            </Button>
                          </Group>
                        </Form>
                        {member.userId === me ? null : (
                          <Form method="post">
                            <AuthenticityTokenInput name="csrf" />
                            <input type="hidden" name="userId" value={member.userId} />
                            <Button
                              type="submit"
                              name="intent"
                              value="remove"
                              variant="default"
                              size="xs"
                              aria-label={`Remove ${name}`}
                            >
                              Remove
                            </Button>
                          </Form>
                        )}
                      </Group>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <PageLinks
        page={page}
        pageCount={pages}
        pageSize={MEMBERS_PER_PAGE}
        total={total}
        href={pageHref}
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
                    <Form method="post">
                      <AuthenticityTokenInput name="csrf" />
                      <input type="hidden" name="invitationId" value={invitation.id} />
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          type="submit"
                          name="intent"
                          value="resend"
                          variant="default"
                          size="xs"
                          aria-label={`Send the invitation to ${invitation.email} again`}
                        >
                          Send again
                        </Button>
                        <Button
                          type="submit"
                          name="intent"
                          value="revoke"
                          variant="default"
                          size="xs"
                          aria-label={`Revoke the invitation to ${invitation.email}`}
                        >
                          Revoke
                        </Button>
                      </Group>
                    </Form>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
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
