import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { newCardDrawer } from "~/server/account-billing/drawers.server";

export const loader = (args: LoaderFunctionArgs) => newCardDrawer.loader(args, "/account");
export const action = (args: ActionFunctionArgs) => newCardDrawer.action(args, "/account");
export { NewCardDrawer as default } from "~/ui/billing/card-drawers";
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
