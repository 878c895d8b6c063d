import type { ActionFunctionArgs } from "@remix-run/node";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { action as forgotAction } from "~/routes/forgot-password";
import { action as linkAction } from "~/routes/login_.link";
import { outboxPage } from "~/server/mail/index.server";
import { connection } from "~/server/platform/database/connection.server";
import { db } from "~/server/platform/database/db.server";
import { jobs, oneTimeTokens } from "~/server/platform/database/tables.server";
import { runJobs } from "../support/jobs";
import { formRequest, respond } from "../support/requests";

/**
 * The forms that mail a link to a typed address do the same work whether or not an account has it: the same SQL
 * statements, in the same order, and the same one job queued, whose run looks the address up later. (Not a
 * timing test: the bench times both, `npm run bench`.) The statements are read where they reach the engine:
 * better-sqlite3's statements on SQLite, node-postgres's client on PostgreSQL.
 */
const KNOWN = "customer@example.com";

type Query = (...args: unknown[]) => unknown;

/** Records the SQL text of every statement better-sqlite3 runs; returns the spies to restore. */
function recordSqlite(texts: string[], sqlite: { prepare(text: string): object }) {
  const prototype = Object.getPrototypeOf(sqlite.prepare("select 1")) as Record<string, Query>;
  return (["run", "get", "all", "iterate"] as const).map((method) => {
    const original = prototype[method];
    return vi.spyOn(prototype, method).mockImplementation(function (this: { source: string }, ...args) {
      texts.push(this.source);
      return original.apply(this, args);
    });
  });
}

/** Records the SQL text of every query node-postgres sends, on any connection; returns the spy to restore. */
function recordPostgres(texts: string[]) {
  const prototype = pg.Client.prototype as unknown as Record<"query", Query>;
  const original = prototype.query;
  return [
    vi.spyOn(prototype, "query").mockImplementation(function (this: pg.Client, ...args) {
      const [query] = args as [string | { text: string }];
      texts.push(typeof query === "string" ? query : query.text);
      return original.apply(this, args);
    }),
  ];
}

/** The SQL texts the engine runs while `work` does, in order. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  const spies = connection.engine === "sqlite" ? recordSqlite(texts, connection.sqlite) : recordPostgres(texts);
  try {
    await work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return texts;
}

let client = 0;
const postTo =
  (action: (args: ActionFunctionArgs) => Promise<unknown>, page: string, fields: Record<string, string>) => async () =>
    respond(async () =>
      action({
        request: await formRequest(page, fields),
        params: {},
        context: { clientAddress: `192.0.2.${(client += 1)}` },
      }),
    );

/** The ids of the jobs there are now: a job's time is kept to the second, too coarse to tell the warm-up's apart. */
async function jobIds(): Promise<Set<string>> {
  return new Set((await db.select({ id: jobs.id }).from(jobs)).map((job) => job.id));
}

/** The jobs queued since `earlier` was read. */
async function jobsSince(earlier: Set<string>) {
  return (await db.select().from(jobs)).filter((job) => !earlier.has(job.id));
}

const PAGES: {
  page: string;
  action: (args: ActionFunctionArgs) => Promise<unknown>;
  fields: Record<string, string>;
  subject: string;
}[] = [
  {
    page: "/forgot-password",
    action: forgotAction,
    fields: {},
    subject: "Set a new password for the GateKeeper Portal",
  },
  {
    page: "/login/link",
    action: linkAction,
    fields: { redirectTo: "/licenses" },
    subject: "Your sign-in link for the GateKeeper Portal",
  },
];

describe.each(PAGES)("$page", ({ page, action, fields, subject }) => {
  it("makes the same statements and queues the same job for an address with an account and one without", async () => {
    // Once each first: whatever is made on first use (a limiter, a prepared statement) is made before the count.
    await postTo(action, page, { ...fields, email: "warm-up@nowhere.example" })();
    await postTo(action, page, { ...fields, email: KNOWN })();

    const tokensBefore = await db.select().from(oneTimeTokens);
    const earlier = await jobIds();
    const known = await statementsOf(postTo(action, page, { ...fields, email: KNOWN }));
    const unknown = await statementsOf(postTo(action, page, { ...fields, email: `nobody-${client}@nowhere.example` }));
    expect(known.length).toBeGreaterThan(0);
    expect(unknown).toEqual(known);

    // Each queued one job, the same kind for nobody, and nothing else: no token, no mail, yet.
    const queued = await jobsSince(earlier);
    expect(queued.map((job) => [job.kind, job.ownerId, Object.keys(job.input).sort()])).toEqual([
      ["email-link", null, ["email", "link", "origin", "redirectTo"]],
      ["email-link", null, ["email", "link", "origin", "redirectTo"]],
    ]);
    expect(await db.select().from(oneTimeTokens)).toEqual(tokensBefore);

    // The jobs look the address up: the account gets its link, the unknown address nothing; the typed address is
    // not kept.
    await runJobs();
    const done = (await jobsSince(earlier)).filter((job) => job.kind === "email-link");
    expect(done.map((job) => [job.status, job.result, "email" in job.input])).toEqual(
      expect.arrayContaining([
        ["succeeded", { mail: { mailed: true } }, false],
        ["succeeded", { mail: { mailed: false } }, false],
      ]),
    );
    const mails = (await outboxPage(1, 100)).messages.filter((mail) => mail.subject === subject);
    expect(mails.filter((mail) => mail.to === KNOWN).length).toBeGreaterThan(0);
    expect(mails.filter((mail) => mail.to.startsWith("nobody-"))).toEqual([]);
  });
});
