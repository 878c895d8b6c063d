import type { LoaderFunctionArgs } from "@remix-run/node";
import { renewalsCsv } from "~/server/resellers/renewals.server";

/** The renewals view's rows as CSV (a download: no page of its own). */
export const loader = ({ request }: LoaderFunctionArgs) => renewalsCsv(request);
