import { AsyncLocalStorage } from "node:async_hooks";

/**
 * AsyncLocalStorage that follows async call chains only while one of its runs is under way. On Node 20 an enabled
 * AsyncLocalStorage turns on promise hooks for the whole process, for good: every promise of every request then
 * pays a hook and an allocation (about 35 kB of the 515 kB a signed-in page allocates), although the store is
 * asked for only inside a transaction or a billing call. So the storage is disabled once its last run has ended,
 * and the hooks go off with it when no other storage is enabled.
 *
 * Inside a run, getStore() is what AsyncLocalStorage gives, through awaits, timers and nested runs, each chain
 * its own. Between runs it is undefined, as outside a run; work that outlives every run may also find undefined
 * where AsyncLocalStorage would have kept the ended run's store (the users here treat an ended one as none).
 */
export class ScopedStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private runs = 0;

  getStore(): T | undefined {
    return this.storage.getStore();
  }

  async run<R>(store: T, work: () => Promise<R>): Promise<R> {
    this.runs += 1;
    try {
      return await this.storage.run(store, work);
    } finally {
      this.runs -= 1;
      if (this.runs === 0) this.storage.disable();
    }
  }
}
