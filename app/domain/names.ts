import { z } from "zod";
import { CANNOT_BE_EMPTY, optionalText } from "./fields";
import { tooLong } from "./text-limits";

/**
 * Names of people and organizations are plain names: letters of any script (accents and combining marks too),
 * digits, spaces and ordinary punctuation, on one line. The portal puts them into mail (an invitation
 * names the organization and who invites), so a name must not be able to carry a sentence with a link or an
 * address: no line breaks, no `://`, no `@`, and short.
 */
export const MAX_NAME_LENGTH = 100;

export const NAME_CHARACTERS =
  "Use letters, digits, spaces and the punctuation . , ' - & ( ) / + : ! ? only (no @, no line breaks).";
export const NAME_NO_WEB_ADDRESS = "A name cannot contain a web address (://).";

const PLAIN = /^[\p{L}\p{M}\p{N} .,'’\-–&()/+:!?]*$/u;

/** The message a name would get at its field, or null when it is a plain name (an empty one is the field's to refuse). */
export function nameProblem(name: string): string | null {
  if (name.length > MAX_NAME_LENGTH) return tooLong(MAX_NAME_LENGTH);
  if (!PLAIN.test(name)) return NAME_CHARACTERS;
  if (name.includes("://")) return NAME_NO_WEB_ADDRESS;
  return null;
}

export const isPlainName = (name: string) => name.trim() !== "" && nameProblem(name) === null;

function refineName(name: string, ctx: z.RefinementCtx) {
  const problem = nameProblem(name);
  if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
}

/** A required name field: trimmed, not empty, a plain name (else its message at the field). */
export const plainName = z
  .string({ required_error: CANNOT_BE_EMPTY })
  .trim()
  .min(1, CANNOT_BE_EMPTY)
  .superRefine(refineName);

/** A name field that may be left empty (""): else a plain name, as a required one. */
export const optionalPlainName = optionalText.superRefine(refineName);

/**
 * A name kept from before the rule, shown as data: on one line, cut to the rule's length, in quotes, so that a
 * reader sees a name someone typed and not the portal's own words.
 */
export function quotedName(name: string): string {
  const line = name.replace(/\s+/gu, " ").trim();
  const cut = line.length > MAX_NAME_LENGTH ? `${line.slice(0, MAX_NAME_LENGTH - 1)}…` : line;
  return `“${cut}”`;
}
