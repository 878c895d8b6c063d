import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { newCardDrawer } from "~/server/account-billing/drawers.server";
import { updateCardDrawerMount } from "~/server/progress-pages.server";

// The account's drawer, mounted over a license update's progress page while its charge waits for the cardholder; saving
// returns to the page, where the new card can be chosen.
const mount = ({ params }: { params: LoaderFunctionArgs["params"] }) => updateCardDrawerMount(params.jobId ?? "");
export const loader = (args: LoaderFunctionArgs) => newCardDrawer.loader(args, mount(args));
export const action = (args: ActionFunctionArgs) => newCardDrawer.action(args, mount(args));
export { NewCardDrawer as default } from "~/ui/billing/card-drawers";
export { cardRouteHandle as handle } from "~/ui/billing/card-drawers";
export { DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawer";
