import { ProviderError } from "~/server/platform/provider-errors.server";

export class CardError extends ProviderError {
  override name = "CardError";
}
