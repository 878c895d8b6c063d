import { integer, text } from "drizzle-orm/sqlite-core";

/**
 * Columns the embedded providers' tables share. Their dates are stored in milliseconds but always whole
 * seconds, as the real providers report them.
 */
export const timestamp = (name: string) => integer(name, { mode: "timestamp_ms" });

/**
 * An embedded provider's armed faults, one per call (billing_faults, hub_faults): a table, so that an e2e
 * test or an operator can arm one on a running server with a single insert. See providers/faults.server.
 */
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
