import type Database from "better-sqlite3";
import { drizzle, type SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";
import * as schema from "~db/schema";
import { ScopedStorage } from "~/server/platform/async/scoped-storage.server";

/**
 * drizzle's SQLite database with PostgreSQL's async API, over one better-sqlite3 connection: every query returns
 * a promise and `db.transaction(async (tx) => ...)` may await inside (drizzle's better-sqlite3 driver refuses an
 * async transaction). One connection can hold one transaction, so transactions take turns: a transaction, and
 * any query started outside one, waits while another transaction is open. Queries made inside a transaction's
 * callback (through `tx`, or through `db` in the same async call chain, which a ScopedStorage follows) run in
 * it at once; a `db.transaction` started there becomes a savepoint instead of waiting for itself.
 *
 * Transactions begin IMMEDIATE, taking SQLite's write lock up front: an async transaction may await between a
 * read and a write, and another process that wrote in between would otherwise make its write fail (SQLITE_BUSY).
 */
export type AsyncSqliteDatabase = SqliteRemoteDatabase<typeof schema>;

type Method = "run" | "all" | "values" | "get";

/** What a statement run for its effect returns: the rows it changed as `rowCount`, node-postgres's name. */
export interface SqliteRunResult {
  rows: [];
  rowCount: number;
}

/** How many rows an insert, update or delete (awaited without `returning`) changed, on either engine. */
export function affectedRows(result: object): number {
  const { rowCount } = result as { rowCount?: unknown };
  if (typeof rowCount !== "number") throw new TypeError("Not the result of a statement run for its effect.");
  return rowCount;
}

/** Prepared statements kept per SQL text; a query builder makes the same few hundred texts over and over. */
const STATEMENT_CACHE = 500;

/** A first-come, first-served lock. */
class Turns {
  private held = false;
  private readonly queue: (() => void)[] = [];

  get busy() {
    return this.held;
  }

  take(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  give() {
    const next = this.queue.shift();
    if (next) next();
    else this.held = false;
  }
}

interface OpenTransaction {
  /** False once committed or rolled back: work that outlives the callback waits like any other. */
  open: boolean;
  tx?: Parameters<Parameters<AsyncSqliteDatabase["transaction"]>[0]>[0];
}

/** The async database over a connection, or over the function that opens it on the first statement. */
export function asyncSqlite(connection: Database.Database | (() => Database.Database)): AsyncSqliteDatabase {
  const sqlite = typeof connection === "function" ? connection : () => connection;
  const statements = new Map<string, Database.Statement>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE) statements.delete(statements.keys().next().value!);
      statement = sqlite().prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };

  const execute = (text: string, params: unknown[], method: Method) => {
    // A failed statement can end the transaction itself (SQLite rolls back on some errors): then there is
    // nothing to roll back, and the statement's own error, not "no transaction is active", must reach the caller.
    if (text === "rollback" && !sqlite().inTransaction) return { rows: [], rowCount: 0 };
    const statement = prepared(text);
    if (method === "run" || !statement.reader) {
      return { rows: [], rowCount: statement.run(params).changes } satisfies SqliteRunResult;
    }
    // drizzle maps rows from arrays of values, in the order of the selected fields; for `get`, `rows` is the one
    // row (undefined when there is none).
    statement.raw(true);
    return { rows: (method === "get" ? statement.get(params) : statement.all(params)) as unknown[] };
  };

  const turns = new Turns();
  const transactions = new ScopedStorage<OpenTransaction>();

  const db = drizzle(
    async (text, params, method) => {
      if (transactions.getStore()?.open || !turns.busy) return execute(text, params, method);
      await turns.take();
      try {
        return execute(text, params, method);
      } finally {
        turns.give();
      }
    },
    { schema },
  );

  const transaction = db.transaction.bind(db);
  db.transaction = async (callback, config) => {
    const current = transactions.getStore();
    if (current?.open && current.tx) return current.tx.transaction(callback);
    await turns.take();
    const opened: OpenTransaction = { open: true };
    try {
      return await transactions.run(opened, () =>
        transaction(
          (tx) => {
            opened.tx = tx;
            return callback(tx);
          },
          { behavior: "immediate", ...config },
        ),
      );
    } finally {
      opened.open = false;
      turns.give();
    }
  };
  return db;
}
