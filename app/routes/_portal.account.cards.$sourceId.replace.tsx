import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { replaceCardDrawer } from "~/server/account-billing/drawers.server";

export const loader = (args: LoaderFunctionArgs) => replaceCardDrawer.loader(args, "/account");
export const action = (args: ActionFunctionArgs) => replaceCardDrawer.action(args, "/account");
export { ReplaceCardDrawer as default } from "~/ui/billing/card-drawers";
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
