import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/**
 * Remix's <Scripts> writes a <link rel="modulepreload"> per script of the page. Chromium's preload scanner
 * finds them at once and fetches them alongside the stylesheets, sharing a slow link's bandwidth, so the
 * first paint (which waits for the stylesheets) waited for JavaScript too (decision 063). This rewrites
 * them as inert links and puts one inline script after them that adds a module preload to <head> for
 * each. The parser runs an inline script only once the stylesheets above it have arrived, so the scripts
 * are fetched right after the CSS, all at once, before the page's module script asks for them. (Changing
 * an inert link's rel does not make Chromium fetch it: new elements are needed.) React does not compare
 * attributes when it hydrates in production, so the inert links hydrate as Remix's.
 */
const PRELOAD = '<link rel="modulepreload"';
const DEFERRED = '<link data-after-css="modulepreload"';
/** Remix's first script after its preloads; the restoring script goes just before it. */
const SCRIPT = "<script";
const restore = (nonce: string | undefined) =>
  `<script${nonce ? ` nonce="${nonce}"` : ""}>for(const l of document.querySelectorAll("link[data-after-css]")){const p=document.createElement("link");p.rel="modulepreload";p.href=l.href;document.head.append(p)}</script>`;

/** The transform for one page's HTML stream; `nonce` is the page's CSP nonce. */
export function preloadScriptsAfterStylesheets(nonce: string | undefined): Transform {
  let pending = "";
  let seen = false;
  let restored = false;
  const rewrite = (text: string) => {
    const rewritten = text.replaceAll(PRELOAD, DEFERRED);
    if (restored) return rewritten;
    const from = seen ? 0 : rewritten.indexOf(DEFERRED);
    if (from < 0) return rewritten;
    seen = true;
    const at = rewritten.indexOf(SCRIPT, from);
    if (at < 0) return rewritten;
    restored = true;
    return rewritten.slice(0, at) + restore(nonce) + rewritten.slice(at);
  };
  const decoder = new StringDecoder("utf8");
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = pending + decoder.write(chunk);
      // A tag split between chunks: an end that may start one waits for the next chunk.
      const lastTag = text.lastIndexOf("<");
      const tail = text.slice(lastTag);
      const splitTag = lastTag >= 0 && [PRELOAD, SCRIPT].some((tag) => tail.length < tag.length && tag.startsWith(tail));
      pending = splitTag ? tail : "";
      done(null, rewrite(splitTag ? text.slice(0, lastTag) : text));
    },
    flush(done) {
      const rest = rewrite(pending + decoder.end());
      done(null, seen && !restored ? rest + restore(nonce) : rest);
    },
  });
}
