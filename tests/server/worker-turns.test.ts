import { describe, expect, it, vi } from "vitest";
import { newNonce, oneRequestPerTurn } from "../../scripts/server.mjs";
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

describe("how a process starts the requests it has (decision 139)", () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it("starts one per turn of the event loop, in the order they arrived, so a turn stays short under load", async () => {
    const started: string[] = [];
    const serve = oneRequestPerTurn((request: string) => started.push(request));
    for (const request of ["first", "second", "third"]) serve(request, {});
    expect(started).toEqual([]);
    await nextTurn();
    expect(started).toEqual(["first"]);
    serve("fourth", {});
    await nextTurn();
    await nextTurn();
    await nextTurn();
    expect(started).toEqual(["first", "second", "third", "fourth"]);
  });

  it("skips a page read whose client closed its connection while it waited, but still carries out a form post (decision 139)", async () => {
    const started: string[] = [];
    const serve = oneRequestPerTurn((request: { name: string }) => started.push(request.name));
    const gone = { destroyed: true };
    serve({ name: "read for a client that has gone", method: "GET" }, gone);
    serve({ name: "post for a client that has gone", method: "POST" }, gone);
    serve({ name: "read", method: "GET" }, { destroyed: false });
    await nextTurn();
    expect(started).toEqual(["post for a client that has gone"]);
    await nextTurn();
    expect(started).toEqual(["post for a client that has gone", "read"]);
  });

  it("between two of them, reads what else has arrived and runs what is due (a new connection, a lease timer)", async () => {
    const order: string[] = [];
    // Each request takes 5 ms, as a render does. The timer is set while the first runs, so it is due by the time
    // the first is done however busy the machine: set beside the queueing, a slow turn could let it fire first.
    const serve = oneRequestPerTurn((request: string) => {
      if (request === "first") setTimeout(() => order.push("timer"), 0);
      const end = Date.now() + 5;
      while (Date.now() < end);
      order.push(request);
    });
    serve("first", {});
    serve("second", {});
    // Waited for, not slept on: a busy machine may take longer than a quiet one's few turns.
    await vi.waitFor(() => expect(order).toHaveLength(3), { timeout: 5_000 });
    expect(order).toEqual(["first", "timer", "second"]);
  });
});

describe("the CSP nonce of each response", () => {
  it("is 16 fresh random bytes each time, across refills of its pool", () => {
    const nonces = Array.from({ length: 1_000 }, () => newNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
