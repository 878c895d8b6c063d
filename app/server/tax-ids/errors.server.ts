import { ProviderError } from "~/server/platform/provider-errors.server";

export class TaxIdError extends ProviderError {
  override name = "TaxIdError";
}

/** The register cannot answer now: nothing is known of the number; ask again later. */
export const registerUnavailable = (message: string, code = "unavailable") =>
  new TaxIdError(message, { kind: "retryable", code });
