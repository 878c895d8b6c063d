import { logger, roundMs } from "./log/log.server";
import { providerCallDuration, type CallOutcome } from "./metrics.server";
import { ProviderError } from "./provider-errors.server";
import { inSpan } from "./log/traces.server";

/** What a failed call says about the outside world: its ProviderError's kind; anything else may pass on a retry. */
const outcomeOf = (error: unknown): CallOutcome => (error instanceof ProviderError ? error.kind : "retryable");

/**
 * A port's adapter whose every call is measured (portal_provider_call_duration_seconds by provider, call and
 * outcome), traced when tracing is on, and logged: one line a call, with the work it is part of (the request id,
 * or the job and the request that caused it). A real provider's calls are logged at `info`; an embedded one's,
 * which answer from the portal's own database on most pages, at `debug`.
 */
export function observedCalls<Port extends object>(
  provider: string,
  adapter: Port,
  { embedded }: { embedded: boolean },
): Port {
  const level = embedded ? "debug" : "info";
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      let call = wrapped.get(property);
      if (!call) {
        call = (...args: unknown[]) => {
          const started = performance.now();
          const done = (outcome: CallOutcome) => {
            const seconds = (performance.now() - started) / 1000;
            providerCallDuration.observe({ provider, call: property, outcome }, seconds);
            logger[level]({
              event: "provider-call",
              provider,
              call: property,
              outcome,
              durationMs: roundMs(seconds * 1000),
            });
          };
          return inSpan(`${provider} ${property}`, { "portal.provider": provider }, () => {
            const result: unknown = Reflect.apply(value, target, args);
            if (!(result instanceof Promise)) return result;
            return result.then(
              (answer: unknown) => {
                done("ok");
                return answer;
              },
              (error: unknown) => {
                done(outcomeOf(error));
                throw error;
              },
            );
          });
        };
        wrapped.set(property, call);
      }
      return call;
    },
  });
}
