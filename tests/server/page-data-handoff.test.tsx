import type { EntryContext } from "@remix-run/node";
// Remix's own component, from its build: the test pins the contract handOffDataBeforeRender relies on.
import { StreamTransfer } from "@remix-run/react/dist/single-fetch.js";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { handOffDataBeforeRender } from "~/server/platform/delivery/page-data-handoff.server";

/** The page's data as Remix streams it, in the pieces given; "ë" is split across the first two. */
function pageData(...pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

const DATA = new TextEncoder().encode('[{"name":"Zoë"}]\n');
const SPLIT = DATA.indexOf(0xc3) + 1;

function entryContext(stream: ReadableStream<Uint8Array>) {
  return { serverHandoffStream: stream, renderMeta: { didRenderScripts: true } } as unknown as EntryContext;
}

/** What RemixServer renders after the app: the data scripts, read by StreamTransfer from the first read on. */
const renderTransfer = (context: EntryContext) =>
  renderToString(
    <StreamTransfer
      context={context}
      identifier={0}
      reader={context.serverHandoffStream!.getReader()}
      textDecoder={new TextDecoder()}
      nonce="N"
    />,
  );

describe("the page's data, handed to Remix before a string render", () => {
  it("renders every piece as Remix's stream render would, and closes the browser's stream, without suspending", async () => {
    const context = entryContext(pageData(DATA.subarray(0, SPLIT), DATA.subarray(SPLIT)));
    await handOffDataBeforeRender(context);

    const html = renderTransfer(context);

    expect(html).not.toContain("<!--$!-->");
    expect(html).toBe(
      '<script nonce="N">window.__remixContext.streamController.enqueue("[{\\"name\\":\\"Zo");</script>' +
        '<!--$--><script nonce="N">window.__remixContext.streamController.enqueue("ë\\"}]\\n");</script>' +
        '<!--$--><script nonce="N">window.__remixContext.streamController.close();</script><!--/$--><!--/$-->',
    );
  });

  it("keeps the stream's pieces as they came and leaves nothing to read", async () => {
    const stream = pageData(DATA);
    const context = entryContext(stream);
    await handOffDataBeforeRender(context);

    expect(Object.values(context.renderMeta?.streamCache ?? {}).map((read) => read.result)).toEqual([
      { done: false, value: '[{"name":"Zoë"}]\n' },
      { done: true, value: "" },
    ]);
    expect(stream.locked).toBe(false);
  });

  it("leaves a page without streamed data alone", async () => {
    const context = { renderMeta: {} } as unknown as EntryContext;
    await handOffDataBeforeRender(context);
    expect(context.renderMeta).toEqual({});
  });
});
