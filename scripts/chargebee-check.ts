/**
 * `npm run chargebee:check`: every call the portal makes, on a throwaway customer of a Chargebee test site
 * (CHARGEBEE_SITE ending in -test, CHARGEBEE_API_KEY, CHARGEBEE_GATEWAY_ACCOUNT_ID), each result printed.
 * See docs/billing-providers.md.
 */
import { runChargebeeCheck } from "~/server/billing/chargebee/check.server";

process.exitCode = await runChargebeeCheck(process.env, (line) => console.log(line));
