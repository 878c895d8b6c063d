import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { updateStepUrl } from "~/domain/license-update";
import { newCardDrawer } from "~/server/account-billing/drawers.server";

// The account's drawer, mounted over the update wizard's payment step; saving returns to the step.
const closeTo = ({ params }: { params: LoaderFunctionArgs["params"] }) =>
  updateStepUrl(params.subscriptionId ?? "", "billing");
export const loader = (args: LoaderFunctionArgs) => newCardDrawer.loader(args, closeTo(args));
export const action = (args: ActionFunctionArgs) => newCardDrawer.action(args, closeTo(args));
export { NewCardDrawer as default } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
