import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useMatches, useRouteError } from "@remix-run/react";
import { isDistributor } from "~/domain/customers";
import { canStartTrial } from "~/domain/trials";
import { requireUser } from "~/server/auth.server";
import { isSidebarCollapsed } from "~/server/preferences.server";
import { countTrials } from "~/server/users.server";
import { ErrorPage } from "~/ui/error-page";
import { PortalShell, type ShellUser } from "~/ui/shell";
import portalStyles from "~/styles/portal.css";
import { pageTitle } from "~/ui/page";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }];

/** Every portal page sits in the shell and needs a signed-in user. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const shellUser: ShellUser = {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    isDistributor: isDistributor(user),
    isGKAdmin: user.isGKAdmin,
    canStartTrial: canStartTrial(user, countTrials(user.id)),
  };
  return { user: shellUser, sidebarCollapsed: await isSidebarCollapsed(request) };
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
