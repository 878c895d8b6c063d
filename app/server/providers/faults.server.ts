import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, gt, sql } from "drizzle-orm";
import { affectedRows } from "~/server/platform/database/portal-database.server";
import type { billingFaults, hubFaults, taxIdFaults } from "~/server/platform/database/tables.server";
import type { EmbeddedStore } from "./embedded.server";
import type { ErrorKind, ProviderError, ProviderErrorDetails } from "~/server/platform/provider-errors.server";

/**
 * Fault injection shared by the embedded providers (tests and demos): make a named call fail with a
 * message, hang and then time out, or take effect and then lose its answer (a timeout after the provider
 * acted: the outcome the caller sees is unknown), once, a number of times, or always. Each provider keeps
 * its armed faults in a table of its own (billing_faults, hub_faults, tax_id_faults), so a test or an operator can arm one
 * on a running server with a single SQL insert; a provider may add modes of its own.
 */
export type BaseFaultMode = "fail" | "hang" | "lose";

export interface Fault<Mode extends string = BaseFaultMode> {
  mode?: Mode;
  /** The provider message of the failure. */
  message?: string;
  kind?: ErrorKind;
  times?: "once" | "always" | number;
  /** How long a hanging call waits before it times out. */
  hangMs?: number;
}

/** A fault as its table stores it. */
export interface ArmedFault<Mode extends string = BaseFaultMode> {
  mode: Mode;
  kind: ErrorKind;
  message: string;
  /** How many more calls fail; null means every call. */
  remaining: number | null;
  hangMs: number;
}

/** A timeout (hang) or a lost answer: the caller cannot know what happened. */
const unanswered = (mode: string) => mode === "hang" || mode === "lose";

/** The row to store for a fault, with the provider's own wording for a timeout and a refusal. */
export function armedFault<Mode extends string>(
  fault: Fault<Mode>,
  fallback: Mode,
  messages: { timeout: string; refusal: string },
): ArmedFault<Mode> {
  const mode = fault.mode ?? fallback;
  const times = fault.times ?? "once";
  return {
    mode,
    kind: fault.kind ?? (unanswered(mode) ? "unknown" : "final"),
    message: fault.message ?? (unanswered(mode) ? messages.timeout : messages.refusal),
    remaining: times === "always" ? null : times === "once" ? 1 : times,
    hangMs: fault.hangMs ?? 30_000,
  };
}

/** A provider's table of armed faults (billing_faults, hub_faults, tax_id_faults): one row per call. */
type FaultTable = typeof billingFaults | typeof hubFaults | typeof taxIdFaults;

/**
 * Takes one of the counted calls of the fault armed for `call`, in one statement (the count is lowered only where it
 * is still above zero); true when it took one. What `due` is given as `spend`.
 */
export async function spendOne(store: EmbeddedStore, table: FaultTable, call: string): Promise<boolean> {
  const result = await store
    .update(table)
    .set({ remaining: sql`${table.remaining} - 1` })
    .where(and(eq(table.call, call), gt(table.remaining, 0)));
  return affectedRows(result) === 1;
}

/**
 * The fault that applies to this call, if any: a spent fault does not; a counted one applies only when `spend`
 * takes one of its calls, which it does in one statement (lowering the count where it is still above zero, true
 * when it did), so that two calls at once cannot both take the last one.
 */
export async function due<Mode extends string>(
  fault: ArmedFault<Mode> | undefined,
  spend: () => Promise<boolean>,
): Promise<ArmedFault<Mode> | null> {
  if (!fault || fault.remaining === 0) return null;
  if (fault.remaining !== null && !(await spend())) return null;
  return fault;
}

type ErrorMaker = (message: string, details: ProviderErrorDetails) => ProviderError;

export interface FaultHooks<Mode extends string> {
  /** The fault armed for a call, with one of its counted uses spent (see `due`). */
  arm: (call: string) => Promise<ArmedFault<Mode> | null>;
  /** The provider's error class. */
  error: ErrorMaker;
  /** A provider's own mode: what the call answers instead (it may `run` the call itself). */
  other?: (fault: ArmedFault<Mode>, call: string, run: () => Promise<unknown>) => Promise<unknown>;
}

/** The failure a fault causes; a timed-out call says nothing of its own, as a real timeout would. */
function failure(fault: ArmedFault<string>, error: ErrorMaker): ProviderError {
  const providerMessage = fault.mode === "fail" ? fault.message : undefined;
  return error(fault.message, { kind: fault.kind, providerMessage, code: "injected_fault" });
}

/** The provider with every call passing the fault check: before the call (fail, hang) or after it (lose). */
export function withFaults<T extends object, Mode extends string>(provider: T, hooks: FaultHooks<Mode>): T {
  return new Proxy(provider, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return async (...args: unknown[]) => {
        const run = async (): Promise<unknown> => value.apply(target, args);
        const fault = await hooks.arm(property);
        if (!fault) return run();
        if (fault.mode === "hang") await sleep(fault.hangMs);
        if (fault.mode === "fail" || fault.mode === "hang") throw failure(fault, hooks.error);
        if (fault.mode !== "lose" && hooks.other) return hooks.other(fault, property, run);
        await run();
        throw failure(fault, hooks.error);
      };
    },
  });
}
