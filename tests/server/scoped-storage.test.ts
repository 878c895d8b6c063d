import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { ScopedStorage } from "~/server/platform/async/scoped-storage.server";
import { promiseHooksOn } from "../support/promise-hooks";

/** Lets every other waiting callback run before going on. */
const aTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("ScopedStorage", () => {
  it("keeps each run's store through awaits, timers and nested runs, apart from the runs beside it", async () => {
    const storage = new ScopedStorage<string>();
    const seen: string[] = [];
    const chain = (name: string) =>
      storage.run(name, async () => {
        await aTurn();
        seen.push(`${name} ${storage.getStore()}`);
        await storage.run(`${name}.inner`, async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          seen.push(`${name}.inner ${storage.getStore()}`);
        });
        await aTurn();
        seen.push(`${name} again ${storage.getStore()}`);
        return name;
      });
    expect(await Promise.all([chain("a"), chain("b"), chain("c")])).toEqual(["a", "b", "c"]);
    const expected = ["a", "b", "c"].flatMap((name) => [
      `${name} ${name}`,
      `${name}.inner ${name}.inner`,
      `${name} again ${name}`,
    ]);
    expect(seen.sort()).toEqual(expected.sort());
    expect(storage.getStore()).toBeUndefined();
  });

  it("keeps a run's store while another run of the same storage ends beside it", async () => {
    const storage = new ScopedStorage<string>();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const long = storage.run("long", async () => {
      await released;
      await aTurn();
      return storage.getStore();
    });
    await storage.run("short", async () => {
      await aTurn();
    });
    release();
    expect(await long).toBe("long");
  });

  it("turns promise hooks off once its last run has ended, failed or not (an enabled AsyncLocalStorage leaves them on)", async () => {
    expect(await promiseHooksOn()).toBe(false);
    const storage = new ScopedStorage<number>();
    await storage.run(1, async () => {
      expect(await promiseHooksOn()).toBe(true);
    });
    expect(await promiseHooksOn()).toBe(false);
    await expect(
      storage.run(2, async () => {
        await aTurn();
        throw new Error("The work failed.");
      }),
    ).rejects.toThrow("The work failed.");
    expect(await promiseHooksOn()).toBe(false);
    expect(storage.getStore()).toBeUndefined();

    // What ScopedStorage is for: Node's own storage keeps the hooks on after its run, for the process's lifetime.
    const plain = new AsyncLocalStorage<number>();
    await plain.run(3, async () => {
      await aTurn();
    });
    expect(await promiseHooksOn()).toBe(true);
    plain.disable();
    expect(await promiseHooksOn()).toBe(false);
  });
});
