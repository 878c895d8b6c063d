import { connection } from "~/server/platform/database/connection.server";

/** SQLite's plan for a statement (`explain query plan`), one step's detail a line; only on SQLite. */
export function sqlitePlan(sql: string, ...params: unknown[]): string {
  if (connection.engine !== "sqlite") throw new Error("A SQLite query plan.");
  return (connection.sqlite.prepare(`explain query plan ${sql}`).all(...params) as { detail: string }[])
    .map((step) => step.detail)
    .join("\n");
}
