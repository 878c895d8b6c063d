import pino, { type DestinationStream, type Logger } from "pino";
import { env } from "~/server/platform/config/env.server";
import { currentContext } from "./request-context.server";
import { traceFields } from "./traces.server";

/**
 * The portal's log: one JSON object a line (pino), with the time, the level's name, the process and the fields of
 * the work it belongs to (request-context.server: the request id, or the job and the request that caused it, and
 * who is signed in). Warnings and errors go to stderr, the rest to stdout, as the portal's lines always have.
 * In development the lines are printed for people (pino-pretty).
 *
 * What may not be in a line is kept out twice: the code logs ids, never headers, bodies or forms, and fields
 * named like a secret are replaced (`redact`); then, whatever a message says, an email address and anything
 * shaped like a card number are masked in the written line (`scrubLine`).
 */
const REDACTED_FIELDS = [
  "password",
  "token",
  "secret",
  "cookie",
  "authorization",
  "email",
  "cardNumber",
  "headers",
  "*.password",
  "*.token",
  "*.secret",
  "*.cookie",
  "*.authorization",
  "*.email",
  "*.cardNumber",
  "*.headers",
];

const EMAIL = /[^\s"'<>()[\],;:@\\]+@[^\s"'<>()[\],;:@\\]+\.[a-z]{2,}/gi;
/**
 * 13 to 19 digits, each maybe after one space or hyphen, as a card number is typed; not the decimals of a number.
 * Card networks' numbers start with 2 to 6; a time in milliseconds (a resource version, an event's time) starts
 * with 1 for decades yet, and stays readable.
 */
const CARD_SHAPED = /(?<![.\d])[2-6](?:[ -]?\d){12,18}(?![.\d])/g;
/** Right after these a match is a JSON number, not part of a string: its mask is quoted so the line stays JSON. */
const BEFORE_A_JSON_VALUE = new Set([":", ",", "["]);

/** Luhn's check, which every card number passes: a long number that fails it (most ids, counts) is left alone. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A written line with every email address and card number in it masked. */
export function scrubLine(line: string): string {
  let clean = line.includes("@") ? line.replace(EMAIL, "[email]") : line;
  if (/\d{4}/.test(clean)) {
    clean = clean.replace(CARD_SHAPED, (match, offset: number, whole: string) => {
      if (!passesLuhn(match.replace(/[ -]/g, ""))) return match;
      return BEFORE_A_JSON_VALUE.has(whole[offset - 1] ?? "") ? '"[card]"' : "[card]";
    });
  }
  return clean;
}

const WARN = 40;

/**
 * Where the lines go: pino tells it each line's level (`lastLevel`, as it does for its multistream), so warnings
 * and errors reach stderr. Written synchronously, as console's are: a line is out before the process exits.
 */
function portalDestination(pretty: DestinationStream | null) {
  return {
    [pino.symbols.needsMetadataGsym]: true,
    lastLevel: 0,
    write(line: string) {
      const clean = scrubLine(line);
      if (pretty) pretty.write(clean);
      else if (this.lastLevel >= WARN) process.stderr.write(clean);
      else process.stdout.write(clean);
    },
  };
}

export const logger: Logger = pino(
  {
    level: env.LOG_LEVEL,
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    // A copy: pino merges each line's own fields into what the mixin returns.
    mixin: () => ({ ...currentContext(), ...traceFields() }),
    redact: { paths: REDACTED_FIELDS, censor: "[redacted]" },
  },
  portalDestination(env.NODE_ENV === "development" ? pino.transport({ target: "pino-pretty" }) : null),
);

/** The fields of an error for a log line: its message and stack (pino's serializer), under `err`. */
export const errorFields = (error: unknown) => ({ err: error instanceof Error ? error : new Error(String(error)) });

/** A duration for a log line: milliseconds to a tenth. */
export const roundMs = (ms: number) => Math.round(ms * 10) / 10;
