import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { replaceCardDrawer } from "~/server/account-billing/drawers.server";
import { trialPaymentUrl } from "~/server/trials/trial-wizard.server";

// The account's drawer, mounted over a trial's payment step; saving returns to the step.
export const loader = (args: LoaderFunctionArgs) => replaceCardDrawer.loader(args, trialPaymentUrl(args));
export const action = (args: ActionFunctionArgs) => replaceCardDrawer.action(args, trialPaymentUrl(args));
export { ReplaceCardDrawer as default } from "~/ui/billing/card-drawers";
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
