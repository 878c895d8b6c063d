import { executionAsyncResource } from "node:async_hooks";

/**
 * Whether Node's promise hooks are on in this process now. While an AsyncLocalStorage is enabled, Node tracks
 * every promise, and code after an `await` runs with that promise as its async resource; with the hooks off it
 * runs with the resource of whatever callback started the chain.
 */
export async function promiseHooksOn(): Promise<boolean> {
  await null;
  return executionAsyncResource() instanceof Promise;
}
