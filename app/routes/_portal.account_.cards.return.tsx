import type { LoaderFunctionArgs } from "@remix-run/node";
import { cardReturnLoader } from "~/server/account-billing/drawers.server";

/** Where the card provider's bank page sends the cardholder back to after they answered it. */
export const loader = (args: LoaderFunctionArgs) => cardReturnLoader(args);
