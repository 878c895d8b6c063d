import { eq, sql } from "drizzle-orm";
import { MAX_TIME_MACHINE_DAYS } from "~/domain/time-machine";
import { wholeSeconds, type EmbeddedStore } from "~/server/providers/embedded.server";
import { billingClock } from "~/server/platform/database/tables.server";
import { refused } from "../errors.server";

const CLOCK_ROW = "engine";
const DAY_MS = 24 * 60 * 60 * 1000;
/** The furthest one move of the time machine goes: ten years of renewals is more than any demo needs. */
export const MAX_ADVANCE_DAYS = MAX_TIME_MACHINE_DAYS;

/**
 * The embedded engine's clock: real time (or the clock a test pins) plus how far its time machine has moved it
 * ahead. The distance is a row in the database, so every process of the portal reads the same date; the clock
 * only moves forward, as Chargebee's time machine does.
 */
export class EngineClock {
  private readonly advanced;

  constructor(
    private readonly store: EmbeddedStore,
    private readonly base: () => Date,
  ) {
    // Every call of the engine reads the clock: one prepared statement, not a query built each time.
    this.advanced = store
      .select({ ms: billingClock.advancedMs })
      .from(billingClock)
      .where(eq(billingClock.id, sql.placeholder("id")))
      .prepare("billing_clock_advanced");
  }

  /**
   * The engine's current time, in whole seconds as the providers report times; read in `tx` when given (inside a
   * transaction, which on PostgreSQL is a connection of its own).
   */
  async now(tx?: EmbeddedStore): Promise<Date> {
    const [row] = tx
      ? await tx.select({ ms: billingClock.advancedMs }).from(billingClock).where(eq(billingClock.id, CLOCK_ROW))
      : await this.advanced.execute({ id: CLOCK_ROW });
    return wholeSeconds(new Date(this.base().getTime() + (row?.ms ?? 0)));
  }

  /** Moves the clock `days` whole days forward, in the caller's transaction. */
  async advance(tx: EmbeddedStore, days: number): Promise<void> {
    if (!Number.isInteger(days) || days < 1 || days > MAX_ADVANCE_DAYS) {
      throw refused(`The clock moves forward by 1 to ${MAX_ADVANCE_DAYS} whole days.`, "invalid_days", "days");
    }
    const ms = days * DAY_MS;
    await tx
      .insert(billingClock)
      .values({ id: CLOCK_ROW, advancedMs: ms })
      .onConflictDoUpdate({ target: billingClock.id, set: { advancedMs: sql`${billingClock.advancedMs} + ${ms}` } });
  }
}
