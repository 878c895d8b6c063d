import { describe, expect, it } from "vitest";
import { inTurn, workerCount } from "../../scripts/start.mjs";

describe("which worker gets a new connection (decision 135)", () => {
  it("goes strictly in turn, whatever each worker is doing, so a burst of connections is shared evenly", () => {
    const next = inTurn();
    const picked = Array.from({ length: 50 }, () => next(["first", "second"]));
    expect(picked.filter((worker) => worker === "first")).toHaveLength(25);
    expect(picked.slice(0, 4)).toEqual(["first", "second", "first", "second"]);
  });

  it("skips a worker that has gone, and has no worker to give when none is ready", () => {
    const next = inTurn();
    expect(next(["first", "second", "third"])).toBe("first");
    expect([next(["first", "third"]), next(["first", "third"])]).toEqual(["third", "first"]);
    expect(next([])).toBeUndefined();
  });
});

describe("how many workers npm start runs", () => {
  it("runs one per core unless WEB_CONCURRENCY says otherwise", () => {
    expect(workerCount(undefined, 4)).toBe(4);
    expect(workerCount("2", 4)).toBe(2);
    expect(() => workerCount("0", 4)).toThrow(/WEB_CONCURRENCY/);
  });
});
