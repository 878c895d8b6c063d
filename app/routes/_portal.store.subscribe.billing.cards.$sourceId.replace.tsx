import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { replaceCardDrawer } from "~/server/account-billing/drawers.server";

// The account's drawer, mounted over the purchase wizard's payment step; saving returns to the step.
export const loader = (args: LoaderFunctionArgs) => replaceCardDrawer.loader(args, "/store/subscribe/billing");
export const action = (args: ActionFunctionArgs) => replaceCardDrawer.action(args, "/store/subscribe/billing");
export { ReplaceCardDrawer as default } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
