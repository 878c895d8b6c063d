import { startCluster, stopCluster } from "../scripts/postgres-cluster.mjs";

/**
 * Once per run: the PostgreSQL server the projects on PostgreSQL make their portals' databases on. TEST_POSTGRES_URL
 * names one (.ci/run starts one for the whole run); else a throwaway cluster of this run's own, stopped after it.
 * A machine without PostgreSQL still runs the SQLite project: the reason is kept, and only a portal that starts on
 * PostgreSQL fails with it (e2e/fixtures.ts). Workers inherit what is set here in process.env.
 */
export default async function globalSetup() {
  if (process.env.TEST_POSTGRES_URL) return undefined;
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  try {
    cluster = await startCluster();
  } catch (error) {
    process.env.E2E_POSTGRES_UNAVAILABLE = error instanceof Error ? error.message : String(error);
    return undefined;
  }
  process.env.TEST_POSTGRES_URL = cluster.url;
  return () => stopCluster(cluster.directory);
}
