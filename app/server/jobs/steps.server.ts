import { deleteDraftById } from "../drafts.server";
import type { JobStep } from "./runner.server";

/**
 * The last step of a wizard's job: the draft the order came from is cleared, and only that one (a draft
 * started since stays). Deleting twice is harmless, so a resumed job may run it again.
 */
export function clearDraftStep<Input extends { draftId: string }>(): JobStep<Input> {
  return {
    name: "clear-draft",
    async run({ ownerId, input }) {
      deleteDraftById(ownerId, input.draftId);
      return null;
    },
  };
}
