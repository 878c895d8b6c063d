/** The database DATABASE_URL names: which engine, and the SQLite file or the PostgreSQL connection URL. */
export type DatabaseChoice = { engine: "sqlite"; file: string } | { engine: "postgres"; url: string };

/** What a database URL names; undefined for a form the portal does not know. */
export function databaseChoice(url: string): DatabaseChoice | undefined {
  if (/^postgres(ql)?:\/\/./.test(url)) return { engine: "postgres", url };
  if (url.startsWith("file:") && url.length > "file:".length)
    return { engine: "sqlite", file: url.slice("file:".length) };
  return undefined;
}
