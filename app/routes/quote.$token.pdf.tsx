import type { LoaderFunctionArgs } from "@remix-run/node";
import { quoteLinkPdfResponse } from "~/server/quotes/quote-links.server";

/** The quote's PDF through its mailed link, for whoever holds it; a link that opens nothing is a 404. */
export const loader = ({ params, context }: LoaderFunctionArgs) => quoteLinkPdfResponse(context, params.token ?? "");
