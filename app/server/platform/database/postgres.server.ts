import type { Socket } from "node:net";
import path from "node:path";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "~db/postgres/schema";
import { errorFields, logger } from "~/server/platform/log/log.server";

export type PostgresDatabase = NodePgDatabase<typeof schema>;

/**
 * Opens a pool of connections to a PostgreSQL database (`postgres://` URL) and the drizzle database on it.
 * Transactions each take a connection of the pool (`max` of them at once). With `pipelines` above 0, statements
 * outside a transaction do not: they share that many pipelined connections (see StatementPipelines).
 * Every process keeps its own: workers × instances × (`max` + `pipelines`) must stay under the server's
 * max_connections.
 */
export function openPostgres(
  url: string,
  { max = 5, pipelines = 0 }: { max?: number; pipelines?: number } = {},
): { db: PostgresDatabase; pool: pg.Pool } {
  // allowExitOnIdle: a script (npm run migrate, a test) ends when its work does, without closing the pool.
  const pool = new pg.Pool({ connectionString: url, max, allowExitOnIdle: true });
  // A connection the server closes while it waits in the pool (a restart, a terminated backend) is an 'error'
  // event on the pool, which without a listener ends the process. The pool has already dropped that connection
  // and opens a new one on the next query: the event is worth a line in the log, not a crash.
  pool.on("error", connectionLost);
  if (pipelines > 0) new StatementPipelines(url, pipelines).serve(pool);
  return { db: drizzle(pool, { schema }), pool };
}

function connectionLost(error: Error) {
  logger.warn({ event: "database-connection-lost", ...errorFields(error) });
}

/** A pipelined connection and the number of statements sent on it that have not been answered yet. */
interface Pipeline {
  client: pg.Client;
  pending: number;
}

type Query = (...args: unknown[]) => unknown;

/** The longest a timer may wait: it only has to exist (see waiting). */
const KEEP_ALIVE_MS = 2 ** 31 - 1;

/**
 * Statements outside transactions, on a few long-lived connections in pipeline mode (node-postgres's
 * `pipeline`): a statement is sent without waiting for the answers of those before it, and the statements of
 * one turn of the event loop go out together in one write (see thisTurn). A page's queries (the session, its
 * organization, the page's own reads) then cost one wake-up of the server and one write instead of one each: a
 * process's CPU per page on PostgreSQL was mostly those writes, one per query, each waking a server process. Each
 * statement is answered in order and on its own (one that fails does not fail the others), and the server runs
 * them one after another, so a slow statement holds up those behind it on its connection: a turn's statements go
 * to the connection with the fewest unanswered. A transaction never comes here: it takes a pooled connection of
 * its own (drizzle asks the pool to `connect`), as it must, for its BEGIN … COMMIT to hold its statements and
 * nothing else.
 */
class StatementPipelines {
  private readonly pipelines: (Pipeline | null)[];
  private turn: Pipeline | null = null;
  private unanswered = 0;
  private keepAlive: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    count: number,
  ) {
    this.pipelines = Array.from({ length: count }, () => null);
  }

  /** Sends the pool's own statements (`pool.query`) down the pipelines, and closes them with the pool. */
  serve(pool: pg.Pool): void {
    const pooled = pool.query.bind(pool) as Query;
    const end = pool.end.bind(pool);
    const query: Query = (...args) =>
      // A callback or a custom query object (a cursor) keeps a connection of its own, as before.
      args.some((arg) => typeof arg === "function") || isCustomQuery(args[0]) ? pooled(...args) : this.query(args);
    Object.assign(pool, { query, end: () => Promise.all([end(), this.end()]).then(() => undefined) });
  }

  private query(args: unknown[]): Promise<unknown> {
    const pipeline = this.thisTurn();
    pipeline.pending += 1;
    this.waiting(+1);
    const answered = (pipeline.client.query as Query).apply(pipeline.client, args) as Promise<unknown>;
    return answered.finally(() => {
      pipeline.pending -= 1;
      this.waiting(-1);
    });
  }

  /**
   * The connections' sockets never keep the process alive (as the pool's allowExitOnIdle), so a script ends when
   * its work does; while statements wait for answers, a timer does, so that it does not end before them.
   */
  private waiting(change: 1 | -1): void {
    this.unanswered += change;
    if (this.unanswered > 0) this.keepAlive ??= setInterval(() => {}, KEEP_ALIVE_MS);
    else if (this.keepAlive) {
      clearInterval(this.keepAlive);
      this.keepAlive = null;
    }
  }

  /**
   * The pipeline of this turn of the event loop: every statement of the turn goes to the one that had the fewest
   * unanswered when the turn's first was sent (a new one in place of any that was lost), and its writes are held
   * until the turn's check phase, after the I/O callbacks of the turn: the statements of every request handled
   * meanwhile go out in one write. node-postgres corks each statement's messages itself; a cork held around them
   * makes that one write for all. Before a connection is up, its client queues statements and writes them
   * together once it is.
   */
  private thisTurn(): Pipeline {
    if (this.turn) return this.turn;
    const pipeline = this.leastBusy();
    const socket = isConnected(pipeline.client) ? socketOf(pipeline.client) : null;
    socket?.cork();
    this.turn = pipeline;
    setImmediate(() => {
      this.turn = null;
      socket?.uncork();
    });
    return pipeline;
  }

  private leastBusy(): Pipeline {
    let chosen: Pipeline | undefined;
    for (const [index, pipeline] of this.pipelines.entries()) {
      const open = pipeline ?? this.open(index);
      if (!chosen || open.pending < chosen.pending) chosen = open;
    }
    return chosen!;
  }

  private open(index: number): Pipeline {
    const client = new pg.Client({ connectionString: this.url, pipeline: true });
    const pipeline: Pipeline = { client, pending: 0 };
    socketOf(client).unref();
    // A lost connection fails the statements sent on it (node-postgres answers each with the error); the next
    // statement opens a new one. Until connected, statements wait in the client's queue.
    const lost = (error?: Error) => {
      if (this.pipelines[index] === pipeline) this.pipelines[index] = null;
      if (error) connectionLost(error);
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.connect().catch(lost);
    this.pipelines[index] = pipeline;
    return pipeline;
  }

  private async end(): Promise<void> {
    const open = this.pipelines.filter((pipeline): pipeline is Pipeline => pipeline !== null);
    this.pipelines.fill(null);
    // Ending waits for the server's goodbye on sockets that keep nothing alive (see waiting).
    this.waiting(+1);
    await Promise.all(open.map((pipeline) => pipeline.client.end().catch(() => undefined)));
    this.waiting(-1);
  }
}

/** A query object with a submit of its own (pg-cursor, pg-query-stream): not for a shared connection. */
const isCustomQuery = (arg: unknown) =>
  typeof arg === "object" && arg !== null && typeof (arg as { submit?: unknown }).submit === "function";

/** What node-postgres keeps of a client's connection and does not type: its socket, and whether it is up. */
interface ClientInternals {
  _connected?: boolean;
  connection: { stream: Socket };
}

const socketOf = (client: pg.Client) => (client as unknown as ClientInternals).connection.stream;
const isConnected = (client: pg.Client) => (client as unknown as ClientInternals)._connected === true;

/**
 * Applies the PostgreSQL migrations (db/migrations-postgres) that the database lacks. drizzle's migrator takes
 * no lock of its own: instances starting together must call this under one.
 */
export async function migratePostgres(db: PostgresDatabase): Promise<void> {
  await migrate(db, { migrationsFolder: path.join(process.cwd(), "db", "migrations-postgres") });
}

/** Collations that sort text by code point, as SQLite does (C.UTF-8 compares UTF-8 bytes). */
const CODE_POINT_COLLATIONS = new Set(["C", "POSIX", "C.UTF-8", "C.utf8"]);

/**
 * Refuses a PostgreSQL database that sorts text by a language's rules (en_US.UTF-8, the default of many
 * installations): lists and their tie-breaks would come out in another order than on SQLite.
 */
export async function checkTextOrder(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ collation: string }>(
    "select datcollate as collation from pg_database where datname = current_database()",
  );
  const collation = rows[0]?.collation ?? "";
  if (!CODE_POINT_COLLATIONS.has(collation)) {
    throw new Error(
      `The PostgreSQL database sorts text as ${collation}; the portal needs code-point order: create it with ` +
        "LC_COLLATE 'C.UTF-8' (createdb --locale=C.UTF-8 --template=template0, or initdb --locale=C.UTF-8).",
    );
  }
}
