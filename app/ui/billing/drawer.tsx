import { Text } from "~/ui/typography";
import { useLocation, useMatches, useNavigation, useRouteError } from "@remix-run/react";
import { ErrorPage } from "../error-page";
import { RouteDrawer } from "../route-dialogs";

/** The URL of the page a drawer route sits on: its parent route's. */
function useParentPath(): string {
  const matches = useMatches();
  return matches.at(-2)?.pathname ?? "/";
}

/** A drawer route's errors (a card that is not yours, a provider that is down) in the drawer, over its page. */
export function DrawerErrorBoundary() {
  const error = useRouteError();
  return (
    <RouteDrawer title="Something went wrong" closeTo={useParentPath()}>
      <ErrorPage error={error} />
    </RouteDrawer>
  );
}

/**
 * 'Loading Billing Profile...' in the drawer while its loader runs (with JavaScript; without it the
 * server sends the drawer once it is ready). Rendered by the page that links to `${drawerBase}/profile`.
 */
export function BillingProfilePending({ drawerBase }: { drawerBase: string }) {
  const navigation = useNavigation();
  const location = useLocation();
  const target = `${drawerBase}/profile`;
  // Only while opening it: not while the open drawer's own form is saved and the page reloads its data.
  const opening =
    navigation.state === "loading" &&
    !navigation.formMethod &&
    navigation.location.pathname === target &&
    location.pathname !== target;
  if (!opening) return null;
  return (
    <RouteDrawer title="Update Billing Profile" closeTo={drawerBase}>
      <Text role="status">Loading Billing Profile...</Text>
    </RouteDrawer>
  );
}
