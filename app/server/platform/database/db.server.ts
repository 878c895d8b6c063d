import { connection } from "./connection.server";

export { databaseAnswers } from "./dialect.server";
export type { PortalDatabase, PortalExecutor, PortalTransaction } from "./portal-database.server";

/** The portal's database, on either engine; the start-up (boot.server) migrates it before anything serves. */
export const db = connection.db;
