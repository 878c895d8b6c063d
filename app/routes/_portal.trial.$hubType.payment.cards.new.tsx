import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { newCardDrawer } from "~/server/account-billing/drawers.server";
import { trialPaymentUrl } from "~/server/trials/trial-wizard.server";

// The account's drawer, mounted over a trial's payment step (the step shows the form inline while there is no card).
export const loader = (args: LoaderFunctionArgs) => newCardDrawer.loader(args, trialPaymentUrl(args));
export const action = (args: ActionFunctionArgs) => newCardDrawer.action(args, trialPaymentUrl(args));
export { NewCardDrawer as default } from "~/ui/billing/card-drawers";
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
