import type { LoaderFunctionArgs } from "@remix-run/node";
import { cardReturnLoader } from "~/server/account-billing/drawers.server";

/**
 * Where the card provider's bank page sends the cardholder back to after they answered it (`setup_intent`), and
 * where Stripe's Checkout page in setup mode returns to once the card is entered (`session_id`).
 */
export const loader = (args: LoaderFunctionArgs) => cardReturnLoader(args);
