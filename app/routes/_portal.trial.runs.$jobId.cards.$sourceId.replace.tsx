import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { replaceCardDrawer } from "~/server/account-billing/drawers.server";
import { trialCardDrawerMount } from "~/server/progress-pages.server";

// The account's drawer, mounted over a trial's progress page while its hardware's charge waits for the cardholder;
// saving returns to the page, where the new card can be chosen.
const mount = ({ params }: { params: LoaderFunctionArgs["params"] }) => trialCardDrawerMount(params.jobId ?? "");
export const loader = (args: LoaderFunctionArgs) => replaceCardDrawer.loader(args, mount(args));
export const action = (args: ActionFunctionArgs) => replaceCardDrawer.action(args, mount(args));
export { ReplaceCardDrawer as default } from "~/ui/billing/card-drawers";
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
