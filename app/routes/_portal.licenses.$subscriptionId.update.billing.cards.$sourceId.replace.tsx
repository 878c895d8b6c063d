import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { updateStepUrl } from "~/domain/license-update";
import { replaceCardDrawer } from "~/server/account-billing/drawers.server";

// The account's drawer, mounted over the update wizard's payment step; saving returns to the step.
const closeTo = ({ params }: { params: LoaderFunctionArgs["params"] }) =>
  updateStepUrl(params.subscriptionId ?? "", "billing");
export const loader = (args: LoaderFunctionArgs) => replaceCardDrawer.loader(args, closeTo(args));
export const action = (args: ActionFunctionArgs) => replaceCardDrawer.action(args, closeTo(args));
export { ReplaceCardDrawer as default } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
