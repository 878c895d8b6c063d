import { ProviderError } from "~/server/platform/provider-errors.server";

export class HubError extends ProviderError {
  override name = "HubError";
}

/** The service refused, with its message: repeating will not help. */
export function hubRefused(message: string, code?: string, field?: string): HubError {
  return new HubError(message, { kind: "final", providerMessage: message, code, field });
}
