import { ProviderError } from "~/server/platform/provider-errors.server";

export class BillingError extends ProviderError {
  override name = "BillingError";
}

/** A refusal by the provider with its message, the most common failure. */
export function refused(message: string, code?: string, field?: string): BillingError {
  return new BillingError(message, { kind: "final", providerMessage: message, code, field });
}

export function notFound(what: string): BillingError {
  return refused(`${what} was not found.`, "not_found");
}
