import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { renewFromLicense } from "~/server/orders/renew.server";

/** 'Renew' posts here: the new license's wizard, filled in from the license whose subscription ended. */
export const action = ({ request, params }: ActionFunctionArgs) => renewFromLicense(request, params.licenseId ?? "");
// A post's address opened as a page leads back to the licenses.
export const loader = () => redirect("/licenses");
