import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { databaseChoice } from "~/server/platform/config/database-url.server";
import { ConfigError, parseEnv } from "~/server/platform/config/env.server";

const choiceOf = (DATABASE_URL?: string) => databaseChoice(parseEnv({ DATABASE_URL }).DATABASE_URL);
const WRONG =
  "DATABASE_URL must be file:PATH for SQLite (e.g. file:./data/portal.sqlite) or postgres://… for PostgreSQL";

describe("DATABASE_URL chooses the database engine", () => {
  it("is the SQLite file beside the portal when nothing is set, and a SQLite file for file:PATH", () => {
    expect(choiceOf()).toEqual({ engine: "sqlite", file: "./data/portal.sqlite" });
    expect(choiceOf("")).toEqual({ engine: "sqlite", file: "./data/portal.sqlite" });
    expect(choiceOf("file:/data/portal.sqlite")).toEqual({ engine: "sqlite", file: "/data/portal.sqlite" });
  });

  it("is PostgreSQL for a postgres:// or postgresql:// URL, over TCP or a unix socket", () => {
    for (const url of [
      "postgres://portal:secret@db:5432/portal",
      "postgresql://portal@localhost/portal?sslmode=require",
      "postgres://postgres@/portal?host=%2Ftmp%2Fpg",
    ]) {
      expect(choiceOf(url)).toEqual({ engine: "postgres", url });
    }
  });

  it("refuses anything else in one line naming the variable, a bare path included", () => {
    for (const url of [
      "mysql://db/portal",
      "./data/portal.sqlite",
      "portal.sqlite",
      "file:",
      "postgres://",
      "sqlite://x",
    ]) {
      expect(() => parseEnv({ DATABASE_URL: url }), url).toThrowError(new ConfigError(WRONG));
    }
  });

  it("stops the portal's start-up with that one line", async () => {
    const start = promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", 'await import("./app/server/platform/config/env.server.ts");'],
      { env: { ...process.env, DATABASE_URL: "mysql://db/portal" }, timeout: 60_000 },
    );
    await expect(start).rejects.toMatchObject({ code: 1, stderr: `Configuration error: ${WRONG}\n` });
  }, 90_000);
});
