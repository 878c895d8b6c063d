import { ProviderError } from "~/server/providers/errors.server";

export class CardError extends ProviderError {
  override name = "CardError";
}
