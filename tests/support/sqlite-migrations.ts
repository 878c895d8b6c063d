import { readFileSync } from "node:fs";
import path from "node:path";
import { connection } from "~/server/platform/database/connection.server";

/**
 * Runs a SQLite migration again on the test's database, in one transaction, after taking it back to how it was
 * before that migration: its triggers (names starting with `triggerPrefix`) dropped, then `undo`'s statements.
 * For a test of what the migration's hand-written data step makes of the rows already there.
 */
export function rerunMigration(file: string, triggerPrefix: string, undo: string[]) {
  if (connection.engine !== "sqlite") throw new Error("A SQLite migration runs on SQLite only.");
  const { sqlite } = connection;
  const migration = readFileSync(path.join(process.cwd(), "db/migrations", file), "utf8");
  sqlite.transaction(() => {
    for (const { name } of sqlite
      .prepare("select name from sqlite_master where type = 'trigger' and name like ?")
      .all(`${triggerPrefix}%`) as { name: string }[]) {
      sqlite.exec(`DROP TRIGGER ${name}`);
    }
    for (const statement of undo) sqlite.exec(statement);
    for (const statement of migration.split("--> statement-breakpoint")) sqlite.exec(statement);
  })();
}
