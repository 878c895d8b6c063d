import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterCheckoutUrls } from "~/domain/renewals";
import { newCardDrawer } from "~/server/account-billing/drawers.server";

// The account's drawer, mounted over Pay now's payment step; saving returns to the step.
const closeTo = ({ params }: { params: LoaderFunctionArgs["params"] }) =>
  afterCheckoutUrls.payNow(params.invoiceId ?? "");
export const loader = (args: LoaderFunctionArgs) => newCardDrawer.loader(args, closeTo(args));
export const action = (args: ActionFunctionArgs) => newCardDrawer.action(args, closeTo(args));
export { NewCardDrawer as default } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
