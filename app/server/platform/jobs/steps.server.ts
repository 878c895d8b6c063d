import { deleteDraftById } from "~/server/platform/wizards/drafts.server";
import { ProviderError } from "~/server/platform/provider-errors.server";
import { StepRefused, type JobStep } from "./runner.server";

/** What the last step of a wizard's job returns. */
export type ClearDraftResult = { "clear-draft": null };

/**
 * The last step of a wizard's job: the draft the order came from is cleared, and only that one (a draft
 * started since stays). Deleting twice is harmless, so a resumed job may run it again.
 */
export function clearDraftStep<Input extends { draftId: string }>(): JobStep<Input, ClearDraftResult, "clear-draft"> {
  return {
    name: "clear-draft",
    async run({ ownerId, input }) {
      await deleteDraftById(ownerId, input.draftId);
      return null;
    },
  };
}

/**
 * What a charging step's failure screen says: the step's own refusal (a price or rule that no longer holds),
 * else the provider's words when it gave some, else the page's message.
 */
export function failureText(error: unknown, fallback: string): string {
  if (error instanceof StepRefused) return error.message;
  if (error instanceof ProviderError && error.providerMessage) return error.providerMessage;
  return fallback;
}
