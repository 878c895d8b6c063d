import type { EntryContext } from "@remix-run/node";

/** One piece of the page's data as Remix's `StreamTransfer` keeps it: the read's promise, settled, with its result. */
type SettledRead = Promise<void> & { result: { done: boolean; value: string } };

/**
 * Reads the page's data for the browser (single fetch's turbo-stream, `serverHandoffStream`) to its end and
 * hands every piece to Remix's `StreamTransfer` as already read (decision 133). `StreamTransfer` renders one
 * script per piece; it reads each piece itself and suspends until it arrives, which only a stream renderer
 * can wait for. With every read already settled in its cache, it renders them at once, in the same order and
 * markup, and the page can be rendered to a string.
 */
export async function handOffDataBeforeRender(context: EntryContext): Promise<void> {
  const stream = context.serverHandoffStream;
  const renderMeta = context.renderMeta;
  if (!stream || !renderMeta) return;
  const decoder = new TextDecoder();
  const reads: Record<number, SettledRead> = {};
  // RemixServer numbers the reads from 0; the last one (done) closes the browser's stream.
  let identifier = 0;
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    reads[identifier++] = settled({ done: false, value: decoder.decode(read.value, { stream: true }) });
  }
  // RemixServer takes a reader of its own (for the reads it finds settled, it never reads).
  reader.releaseLock();
  reads[identifier] = settled({ done: true, value: decoder.decode() });
  renderMeta.streamCache = reads;
}

const settled = (result: SettledRead["result"]): SettledRead => Object.assign(Promise.resolve(), { result });
