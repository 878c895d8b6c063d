import { getTableColumns, getTableName, is, SQL, type Column } from "drizzle-orm";
import {
  getTableConfig as postgresTableConfig,
  index as pgIndex,
  integer,
  type PgColumnBuilderBase,
  PgTable,
  pgTable,
  text as pgText,
} from "drizzle-orm/pg-core";
import {
  getTableConfig as sqliteTableConfig,
  index,
  SQLiteTable,
  sqliteTable,
  text as sqliteText,
} from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as postgresSchema from "~db/postgres/schema";
import * as sqliteSchema from "~db/schema";

/**
 * The SQLite and PostgreSQL schemas describe one database: the same tables under the same export names, the same
 * columns (database and property names, not-null, primary key, unique, default, kind of value), the same
 * primary keys, foreign keys and indexes. App code is written once against both, so a table or column added to
 * one schema only fails here.
 */

type AnyTable = SQLiteTable | PgTable;

/** The kind of value a column holds, whatever the engine stores it as; enum values included. */
function kind(column: Column) {
  return { value: column.dataType, enum: column.enumValues?.length ? column.enumValues : undefined };
}

/** A default as written (a literal), or "sql" for an expression the engine evaluates (now, unixepoch). */
function defaultOf(column: Column) {
  if (!column.hasDefault) return column.defaultFn ? "function" : undefined;
  return is(column.default, SQL) ? "sql" : column.default;
}

function columnShape(column: Column) {
  return {
    name: column.name,
    kind: kind(column),
    notNull: column.notNull,
    primary: column.primary,
    unique: column.isUnique ? column.uniqueName : false,
    default: defaultOf(column),
    updates: column.onUpdateFn ? "function" : undefined,
  };
}

const names = (columns: readonly unknown[]) =>
  columns.map((column) => (is(column, SQL) ? "sql" : (column as Column).name));

function tableShape(table: AnyTable) {
  const config = is(table, PgTable) ? postgresTableConfig(table) : sqliteTableConfig(table as SQLiteTable);
  return {
    name: config.name,
    columns: Object.fromEntries(
      Object.entries(getTableColumns(table)).map(([key, column]) => [key, columnShape(column)]),
    ),
    primaryKeys: config.primaryKeys.map((key) => names(key.columns)),
    foreignKeys: config.foreignKeys
      .map((key) => {
        const reference = key.reference();
        return {
          columns: names(reference.columns),
          table: getTableName(reference.foreignTable),
          foreignColumns: names(reference.foreignColumns),
          onDelete: key.onDelete ?? "no action",
          onUpdate: key.onUpdate ?? "no action",
        };
      })
      .sort((a, b) => a.columns.join().localeCompare(b.columns.join())),
    indexes: config.indexes
      .map(({ config: index }) => ({
        name: index.name,
        columns: names(index.columns),
        unique: index.unique,
        partial: index.where !== undefined,
      }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name))),
    uniques: config.uniqueConstraints.map((unique) => ({ name: unique.name, columns: names(unique.columns) })),
    checks: config.checks.map((check) => check.name).sort(),
  };
}

function tablesOf(schema: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(schema).filter(
      (entry): entry is [string, AnyTable] => is(entry[1], SQLiteTable) || is(entry[1], PgTable),
    ),
  );
}

const sqliteTables = tablesOf(sqliteSchema);
const postgresTables = tablesOf(postgresSchema);

describe("the PostgreSQL schema mirrors the SQLite schema", () => {
  it("exports the same names, and the same tables under them", () => {
    expect(Object.keys(postgresSchema).sort()).toEqual(Object.keys(sqliteSchema).sort());
    expect(Object.keys(postgresTables).sort()).toEqual(Object.keys(sqliteTables).sort());
    expect(Object.keys(sqliteTables).length).toBeGreaterThanOrEqual(22);
    for (const table of Object.values(postgresTables)) expect(is(table, PgTable)).toBe(true);
  });

  it.each(Object.keys(sqliteTables))("%s: columns, keys and indexes", (name) => {
    expect(postgresTables[name], `db/postgres has no table exported as ${name}`).toBeDefined();
    expect(tableShape(postgresTables[name])).toEqual(tableShape(sqliteTables[name]));
  });

  it("keeps dates as timestamptz to the millisecond and JSON as jsonb on PostgreSQL", () => {
    for (const table of Object.values(postgresTables)) {
      for (const column of Object.values(getTableColumns(table))) {
        if (column.dataType === "date") expect(column.getSQLType(), column.name).toBe("timestamp (3) with time zone");
        if (column.dataType === "json") expect(column.getSQLType(), column.name).toBe("jsonb");
      }
    }
  });

  it("notices a nullable column, a missing default, another kind of value and a missing or renamed index", () => {
    const sqlite = sqliteTable(
      "probe",
      { id: sqliteText("id").primaryKey(), note: sqliteText("note").notNull().default("") },
      (t) => [index("probe_note_idx").on(t.note)],
    );
    const mirror = (note: PgColumnBuilderBase, indexName = "probe_note_idx", indexed = true) =>
      pgTable("probe", { id: pgText("id").primaryKey(), note }, (t) =>
        indexed ? [pgIndex(indexName).on(t.note)] : [],
      );
    expect(tableShape(mirror(pgText("note").notNull().default("")))).toEqual(tableShape(sqlite));
    for (const drifted of [
      mirror(pgText("note").default("")),
      mirror(pgText("note").notNull()),
      mirror(integer("note").notNull().default(0)),
      mirror(pgText("note").notNull().default(""), "probe_other_idx"),
      mirror(pgText("note").notNull().default(""), "probe_note_idx", false),
    ]) {
      expect(tableShape(drifted)).not.toEqual(tableShape(sqlite));
    }
  });
});
