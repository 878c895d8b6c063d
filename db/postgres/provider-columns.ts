import { integer, text, timestamp as timestampColumn } from "drizzle-orm/pg-core";

/**
 * Columns the embedded providers' tables share, as on SQLite (db/provider-columns.ts): dates to the millisecond,
 * though the providers always write whole seconds, as the real ones report them.
 */
export const timestamp = (name: string) => timestampColumn(name, { mode: "date", withTimezone: true, precision: 3 });

/** An embedded provider's armed faults, one per call (billing_faults, hub_faults). */
export const faultColumns = <const Modes extends readonly [string, ...string[]]>(modes: Modes) => ({
  call: text("call").primaryKey(),
  mode: text("mode", { enum: modes }).notNull(),
  kind: text("kind", { enum: ["final", "retryable", "unknown"] })
    .notNull()
    .default("final"),
  message: text("message").notNull(),
  /** How many more calls fail; null means every call. */
  remaining: integer("remaining"),
  hangMs: integer("hang_ms").notNull().default(0),
});
