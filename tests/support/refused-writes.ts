import { sql } from "drizzle-orm";
import { db } from "~/server/platform/database/db.server";
import type { AsyncSqliteDatabase } from "~/server/platform/database/sqlite-async.server";
import { engine } from "~/server/platform/database/tables.server";

/**
 * Failures no provider fault can stand for (a full disk, a log that refuses an entry), injected into the portal's
 * database as a trigger that aborts an insert, in the SQL of the engine the test runs on.
 */

async function execute(statement: string) {
  if (engine === "postgres") await db.execute(sql.raw(statement));
  else await (db as unknown as AsyncSqliteDatabase).run(sql.raw(statement));
}

/**
 * Makes every insert into `table` whose new row matches `when` (an SQL condition on `new`, the same on both
 * engines) fail with `message`, `after` the row was written (the last statement of its transaction) or
 * `before`; until the returned function (or dropRefusal) takes the trigger away.
 */
export async function refuseInserts(
  name: string,
  table: string,
  message: string,
  { when = "true", timing = "before" }: { when?: string; timing?: "before" | "after" } = {},
): Promise<() => Promise<void>> {
  if (engine === "postgres") {
    await execute(
      `create function ${name}() returns trigger language plpgsql as $$ begin raise exception '${message}'; end $$`,
    );
    await execute(
      `create trigger ${name} ${timing} insert on ${table} for each row when (${when}) execute function ${name}()`,
    );
  } else {
    await execute(
      `create trigger ${name} ${timing} insert on ${table} when ${when} begin select raise(abort, '${message}'); end`,
    );
  }
  return () => dropRefusal(name, table);
}

/** Takes a refusal of refuseInserts away (nothing when there is none). */
export async function dropRefusal(name: string, table: string): Promise<void> {
  if (engine === "postgres") {
    await execute(`drop trigger if exists ${name} on ${table}`);
    await execute(`drop function if exists ${name}()`);
  } else {
    await execute(`drop trigger if exists ${name}`);
  }
}

/** The message of an error and of every error that caused it (drizzle wraps a statement's error in its own). */
export function messagesOf(error: unknown): string {
  const messages: string[] = [];
  for (let cause = error; cause instanceof Error; cause = cause.cause) messages.push(cause.message);
  return messages.join("\n");
}
