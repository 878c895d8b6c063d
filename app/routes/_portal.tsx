import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useMatches, useRouteError } from "@remix-run/react";
import { ROLE_NAMES } from "~/domain/access-policy";
import { allowedActions, currentMember, mayDo, subjectOf } from "~/server/accounts/access.server";
import { requireSession } from "~/server/accounts/auth.server";
import { organizationsOf } from "~/server/accounts/organizations.server";
import { isSidebarCollapsed } from "~/server/platform/preferences.server";
import { mayStartTrial } from "~/server/trials/trials.server";
import { ErrorPage } from "~/ui/error-page";
import { PortalShell, type ShellUser } from "~/ui/shell";
import portalStyles from "~/styles/portal.css";
import { pageTitle } from "~/ui/page";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }];

/**
 * Every portal page sits in the shell and needs a signed-in person. The shell shows the organization they work
 * in (and the others they may switch to), and only what their role there may do.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireSession(request);
  const member = await currentMember(request);
  // Asked together: on PostgreSQL what is asked at once goes out in one write (decision 206).
  const [organizations, canStartTrial, sidebarCollapsed] = await Promise.all([
    member ? organizationsOf(user.id) : [],
    member && mayDo(member, "trials.start") ? mayStartTrial(member.organization) : false,
    isSidebarCollapsed(request),
  ]);
  const shellUser: ShellUser = {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    emailUnverified: user.emailVerifiedAt === null,
    organization: member
      ? { id: member.organization.id, name: member.organization.name, role: ROLE_NAMES[member.role] }
      : null,
    otherOrganizations: organizations
      .filter((organization) => organization.id !== member?.organization.id)
      .map(({ id, name, role }) => ({ id, name, role: ROLE_NAMES[role] })),
    allowed: allowedActions(subjectOf(user, member)),
    canStartTrial,
  };
  return { user: shellUser, sidebarCollapsed };
}

function useShellTitle(fallback: string): string {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const title = pageTitle(matches[index]);
    if (title) return title;
  }
  return fallback;
}

export default function PortalLayout() {
  const { user, sidebarCollapsed } = useLoaderData<typeof loader>();
  return (
    <PortalShell user={user} title={useShellTitle("GateKeeper Portal")} sidebarCollapsed={sidebarCollapsed}>
      <Outlet />
    </PortalShell>
  );
}

/** Errors of the shell itself; pages re-export PageErrorBoundary so that their errors keep the shell. */
export function ErrorBoundary() {
  const error = useRouteError();
  return <ErrorPage error={error} />;
}
