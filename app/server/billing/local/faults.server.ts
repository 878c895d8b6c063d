import { eq } from "drizzle-orm";
import { setTimeout as sleep } from "node:timers/promises";
import type { EmbeddedStore } from "~/server/providers/embedded.server";
import type { ErrorKind } from "~/server/providers/errors.server";
import { billingFaults } from "~db/schema";
import { BillingError } from "../errors.server";
import type { BillingCall } from "../port.server";

/**
 * Fault injection for the embedded engine (tests and demos): make a named call fail with a message, hang
 * and then time out, or take effect and then lose its answer (a timeout after the provider acted: the
 * outcome the caller sees is unknown), once, a number of times, or always. Faults live in the billing_faults table,
 * so a test or an operator can arm one on a running server with a single SQL insert.
 */
export interface Fault {
  mode?: "fail" | "hang" | "lose";
  /** The provider message of the failure. */
  message?: string;
  kind?: ErrorKind;
  times?: "once" | "always" | number;
  /** How long a hanging call waits before it times out. */
  hangMs?: number;
}

export const TIMEOUT_MESSAGE = "The billing provider did not answer in time.";

export function injectBillingFault(store: EmbeddedStore, call: BillingCall, fault: Fault): void {
  const times = fault.times ?? "once";
  const row = {
    call,
    mode: fault.mode ?? "fail",
    kind: fault.kind ?? (fault.mode === "hang" || fault.mode === "lose" ? "unknown" : "final"),
    message: fault.message ?? (fault.mode === "hang" || fault.mode === "lose" ? TIMEOUT_MESSAGE : "The billing provider refused the request."),
    remaining: times === "always" ? null : times === "once" ? 1 : times,
    hangMs: fault.hangMs ?? 30_000,
  } as const;
  store.insert(billingFaults).values(row).onConflictDoUpdate({ target: billingFaults.call, set: row }).run();
}

export function clearBillingFaults(store: EmbeddedStore): void {
  store.delete(billingFaults).run();
}

/** The fault armed for the call, if any, with one of its counted uses spent. */
function arm(store: EmbeddedStore, call: string) {
  const fault = store.select().from(billingFaults).where(eq(billingFaults.call, call)).get();
  if (!fault || fault.remaining === 0) return null;
  if (fault.remaining !== null) {
    store
      .update(billingFaults)
      .set({ remaining: fault.remaining - 1 })
      .where(eq(billingFaults.call, call))
      .run();
  }
  return fault;
}

function failure(fault: typeof billingFaults.$inferSelect): BillingError {
  // A timed-out call says nothing of its own, as a real timeout would; a refusal carries its message.
  const providerMessage = fault.mode === "fail" ? fault.message : undefined;
  return new BillingError(fault.message, { kind: fault.kind, providerMessage, code: "injected_fault" });
}

/** The provider with every call passing the fault check: before the call (fail, hang) or after it (lose). */
export function withFaults<T extends object>(provider: T, store: EmbeddedStore): T {
  return new Proxy(provider, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return async (...args: unknown[]) => {
        const fault = arm(store, property);
        if (fault?.mode === "hang") await sleep(fault.hangMs);
        if (fault && fault.mode !== "lose") throw failure(fault);
        const result: unknown = await value.apply(target, args);
        if (fault) throw failure(fault);
        return result;
      };
    },
  });
}
