import { ProviderError } from "~/server/platform/provider-errors.server";

export class BillingError extends ProviderError {
  override name = "BillingError";
}

/** A refusal by the provider with its message, the most common failure. */
export function refused(message: string, code?: string, field?: string): BillingError {
  return new BillingError(message, { kind: "final", providerMessage: message, code, field });
}

/**
 * The code of a correction a provider will not make on an issued invoice (its country, or anything that changes
 * its tax): the invoice must be credited and issued again instead.
 */
export const CREDIT_NOTE_REQUIRED = "credit_note_required";

export function notFound(what: string): BillingError {
  return refused(`${what} was not found.`, "not_found");
}
