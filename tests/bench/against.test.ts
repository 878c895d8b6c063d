import { describe, expect, it } from "vitest";
import { comparisonTable, medianRound, SLOWER_BELOW } from "../../scripts/bench/against.mjs";
import {
  AGAINST_PAGES,
  AGAINST_ROUNDS,
  AGAINST_SECONDS,
  BenchUsageError,
  benchArgs,
  USAGE,
} from "../../scripts/bench/args.mjs";

describe("the bench's command line", () => {
  it("runs every part with no arguments, and one part with --only", () => {
    expect(benchArgs([])).toEqual({ only: undefined, against: null });
    expect(benchArgs(["--only", "growth"])).toEqual({ only: "growth", against: null });
    expect(() => benchArgs(["--only", "paint"])).toThrow("--only takes one of: growth, postgres");
  });

  it("says how it is used on --help, and refuses a mistyped option with a message, not a stack", () => {
    expect(benchArgs(["--help"])).toEqual({ help: true, only: undefined, against: null });
    for (const option of ["--only", "--against", "--seconds", "--rounds", "--pages", "--help"]) {
      expect(USAGE).toContain(option);
    }
    expect(() => benchArgs(["--frobnicate"])).toThrow(BenchUsageError);
    expect(() => benchArgs(["--frobnicate"])).toThrow("Unknown option '--frobnicate'");
    expect(() => benchArgs(["--only", "paint"])).toThrow(BenchUsageError);
  });

  it("compares with a git ref on the default pages, turn length and rounds, the plan step among them", () => {
    expect(benchArgs(["--against", "d8759cd"])).toEqual({
      only: undefined,
      against: { ref: "d8759cd", seconds: AGAINST_SECONDS, rounds: AGAINST_ROUNDS, pages: AGAINST_PAGES },
    });
    expect(AGAINST_PAGES).toEqual([
      "/home",
      "/licenses",
      "/store/subscribe/plan",
      "/hubs",
      "/account",
      "/account/invoices",
      "/account/team",
    ]);
    expect(AGAINST_SECONDS).toBe(8);
    expect(AGAINST_ROUNDS).toBe(3);
  });

  it("takes the turn length, the rounds and the pages, comma-separated or repeated, each once", () => {
    const { against } = benchArgs([
      "--against=main",
      "--seconds",
      "3",
      "--rounds=5",
      "--pages",
      "/home, /hubs",
      "--pages=/home",
    ]);
    expect(against).toEqual({ ref: "main", seconds: 3, rounds: 5, pages: ["/home", "/hubs"] });
  });

  it("refuses what would only fail minutes later or measure something else", () => {
    expect(() => benchArgs(["--against", " "])).toThrow("--against needs a git ref");
    expect(() => benchArgs(["--against", "main", "--only", "growth"])).toThrow("it takes no --only");
    expect(() => benchArgs(["--seconds", "5"])).toThrow("--seconds only goes with --against");
    expect(() => benchArgs(["--pages", "/home", "--seconds", "5"])).toThrow(
      "--seconds and --pages only go with --against",
    );
    expect(() => benchArgs(["--rounds", "3"])).toThrow("--rounds only goes with --against");
    for (const value of ["0", "2.5", "", "ten"]) {
      expect(() => benchArgs(["--against", "main", "--seconds", value])).toThrow(
        "--seconds takes a whole number of seconds",
      );
      expect(() => benchArgs(["--against", "main", "--rounds", value])).toThrow(
        "--rounds takes a whole number of rounds",
      );
    }
    expect(() => benchArgs(["--against", "main", "--pages", "home"])).toThrow('--pages takes paths starting with "/"');
    expect(() => benchArgs(["--against", "main", "--pages", ","])).toThrow("--pages takes paths");
    expect(() => benchArgs(["--against", "main", "--turns", "4"])).toThrow();
  });
});

describe("the table of two builds", () => {
  const result = (
    requestsPerSecond: number,
    p50: number,
    p99: number,
    { failed = 0, turns = [requestsPerSecond, requestsPerSecond] } = {},
  ) => ({
    requestsPerSecond,
    turnsRequestsPerSecond: turns,
    latencyMs: { p50, p99, max: p99 * 2 },
    requests: requestsPerSecond * 32,
    bytesPerResponse: 20_000,
    timeouts: 0,
    errors: failed,
    non2xx: 0,
  });
  const page = (path: string, a: ReturnType<typeof result>, b: ReturnType<typeof result>, rounds?: number[]) => {
    const ratio = b.requestsPerSecond / a.requestsPerSecond;
    return { path, a, b, ratio, rounds: rounds ?? [ratio] };
  };

  it("puts each page's figures for A and B side by side, with B ÷ A and the rows below 0.95 marked", () => {
    const { columns, rows } = comparisonTable([
      page("/home", result(400, 120.4, 310, { turns: [380, 420] }), result(312, 158, 402.6), [0.91, 0.78, 0.7]),
      page("/hubs", result(300, 160, 420), result(290, 170, 0.4, { failed: 2, turns: [310, 270] })),
      page("/account", result(250, 0.5, 300), result(262.4, 190, 310)),
    ]);
    expect(columns.map(([header]) => header)).toEqual([
      "page",
      "A req/s",
      "B req/s",
      "B ÷ A",
      "rounds B ÷ A",
      "p50 ms A / B",
      "p99 ms A / B",
      "turn gap A / B",
      "failed A / B",
      "mark",
    ]);
    expect(rows).toEqual([
      ["/home", "400", "312", "0.78", "0.91 0.78 0.70", "120 / 158", "310 / 403", "10% / 0%", "0 / 0", "slower"],
      ["/hubs", "300", "290", "0.97", "0.97", "160 / 170", "420 / <1", "0% / 14%", "0 / 2", ""],
      ["/account", "250", "262", "1.05", "1.05", "<1 / 190", "300 / 310", "0% / 0%", "0 / 0", ""],
    ]);
    expect(SLOWER_BELOW).toBe(0.95);
  });

  it("marks a ratio that shows below the threshold, not one that shows at it", () => {
    const { rows } = comparisonTable([
      page("/at", result(100, 1, 1), result(95, 1, 1)),
      page("/shows-at", result(1000, 1, 1), result(949, 1, 1)),
      page("/under", result(1000, 1, 1), result(944, 1, 1)),
    ]);
    expect(rows.map((row) => [row[3], row.at(-1)])).toEqual([
      ["0.95", ""],
      ["0.95", ""],
      ["0.94", "slower"],
    ]);
  });
});

describe("a page's rounds", () => {
  const round = (ratio: number) => ({ ratio, a: { requestsPerSecond: 100 }, b: { requestsPerSecond: 100 * ratio } });

  it("gives the median round, whole: one slow round does not make the page slower", () => {
    const rounds = [round(1.02), round(0.81), round(0.99)];
    expect(medianRound(rounds)).toBe(rounds[2]);
    expect(medianRound([round(0.9)])).toEqual(round(0.9));
  });

  it("gives the lower of the middle two of an even number of rounds", () => {
    const rounds = [round(1.1), round(0.96), round(0.93), round(1.0)];
    expect(medianRound(rounds)).toBe(rounds[1]);
  });
});
