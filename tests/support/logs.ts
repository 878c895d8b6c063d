import { vi } from "vitest";

export type LogLine = Record<string, unknown>;

/**
 * The portal's log lines (app/server/platform/log/log.server: JSON on stdout, warnings and errors on stderr) written
 * from now until `restore`, parsed, instead of printed.
 */
export function captureLogs() {
  const lines: LogLine[] = [];
  const written: string[] = [];
  const grab = (chunk: unknown) => {
    for (const line of String(chunk).split("\n")) {
      if (!line.trim()) continue;
      written.push(line);
      if (line.startsWith("{")) lines.push(JSON.parse(line) as LogLine);
    }
    return true;
  };
  const out = vi.spyOn(process.stdout, "write").mockImplementation(grab);
  const err = vi.spyOn(process.stderr, "write").mockImplementation(grab);
  return {
    lines,
    /** Every line as written, before parsing. */
    written,
    /** The lines of one event (their `event` field). */
    events: (event: string) => lines.filter((line) => line.event === event),
    restore() {
      out.mockRestore();
      err.mockRestore();
    },
  };
}
