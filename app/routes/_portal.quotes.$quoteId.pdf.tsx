import type { LoaderFunctionArgs } from "@remix-run/node";
import { quotePdfResponse } from "~/server/quotes/quote-pages.server";

/** A quote as a PDF, for every member who reads it; another organization's is 404. */
export const loader = ({ request, params }: LoaderFunctionArgs) => quotePdfResponse(request, params.quoteId ?? "");
