import { connection } from "./connection.server";

export { databaseAnswers } from "./dialect.server";
export type { PortalDatabase, PortalExecutor, PortalTransaction } from "./portal-database.server";

/**
 * The portal's database, on either engine; the start-up (boot.server) migrates it before anything serves.
 *
 * In an `sql` subquery, compare columns with eq() and and(), never as a bare `${column} = ${column}`: drizzle writes
 * a column that stands bare in an expression of a one-table query's selection without its table, and inside the
 * subquery `"id"` then names the subquery's own table, silently. eq() is an expression of its own, kept whole.
 */
export const db = connection.db;
