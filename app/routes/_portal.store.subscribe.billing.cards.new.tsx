import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { newCardDrawer } from "~/server/account-billing/drawers.server";

// The account's drawer, mounted over the purchase wizard's payment step; saving returns to the step.
export const loader = (args: LoaderFunctionArgs) => newCardDrawer.loader(args, "/store/subscribe/billing");
export const action = (args: ActionFunctionArgs) => newCardDrawer.action(args, "/store/subscribe/billing");
export { NewCardDrawer as default } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
