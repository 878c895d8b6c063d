/**
 * How a provider call failed, in terms a caller can act on, the same for every outside service (billing,
 * cards, Hubs):
 * - final: the provider refused (bad input, declined card, not found); repeating will not help;
 * - retryable: nothing happened (rate limit, provider busy, no connection); try again later;
 * - unknown: the request may or may not have taken effect (timeout, server error); repeat only with the
 *   same idempotency key, which makes a repeat safe.
 * `providerMessage` is the provider's own text, for pages that show it; it is absent when
 * the provider gave none (e.g. an HTML error page), so the page uses its fallback.
 */
export type ErrorKind = "final" | "retryable" | "unknown";

export interface ProviderErrorDetails {
  kind: ErrorKind;
  providerMessage?: string;
  /** A stable code for callers that branch, e.g. "not_found", "card_declined". */
  code?: string;
  /** The form field the message belongs to, when the provider says so (e.g. "card"). */
  field?: string;
}

export class ProviderError extends Error {
  readonly kind: ErrorKind;
  readonly providerMessage?: string;
  readonly code?: string;
  readonly field?: string;

  constructor(message: string, details: ProviderErrorDetails) {
    super(message);
    this.kind = details.kind;
    this.providerMessage = details.providerMessage;
    this.code = details.code;
    this.field = details.field;
  }
}

/**
 * The message a page shows for a failed call: the provider's own text when it gave one, else the
 * page's fallback.
 */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ProviderError && error.providerMessage ? error.providerMessage : fallback;
}
