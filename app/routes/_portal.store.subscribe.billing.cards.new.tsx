import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { newCardDrawer } from "~/server/account-billing/drawers.server";
import { billingStepOf } from "~/server/orders/new-subscription-wizard.server";

// The account's drawer, mounted over the purchase wizard's payment step; saving returns to the step (of the order's
// customer's draft).
export const loader = (args: LoaderFunctionArgs) => newCardDrawer.loader(args, billingStepOf(args.request));
export const action = (args: ActionFunctionArgs) => newCardDrawer.action(args, billingStepOf(args.request));
export { NewCardDrawer as default } from "~/ui/billing/card-drawers";
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
