// The SQLite file DATABASE_URL names (file:PATH, the portal's default), for the scripts that handle the file
// itself (backup, restore); a PostgreSQL URL has its own tools (pg_dump, pg_restore: see the README).
import path from "node:path";

export const DEFAULT_DATABASE_URL = "file:./data/portal.sqlite";

/** The file's path, or an Error saying why there is none. */
export function sqliteFileOf(url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL) {
  if (/^postgres(ql)?:\/\//.test(url)) {
    return new Error(
      "DATABASE_URL is a PostgreSQL database: back it up with pg_dump and restore it with pg_restore (see the README).",
    );
  }
  if (!url.startsWith("file:")) return new Error("DATABASE_URL must be file:PATH for SQLite.");
  return path.resolve(url.slice("file:".length));
}
