import { env } from "~/server/platform/config/env.server";

/**
 * Where an administrator reads one organization's recent requests: every request line of a signed-in member
 * carries `organizationId`, so the query is that field; with LOG_SEARCH_URL, a link to the log store's search.
 */
export function recentRequestsOf(organizationId: string): { query: string; url: string | null } {
  return {
    query: `"event":"request" and "organizationId":"${organizationId}"`,
    url: env.LOG_SEARCH_URL?.replaceAll("{organizationId}", encodeURIComponent(organizationId)) ?? null,
  };
}
