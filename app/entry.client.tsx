import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

/**
 * Resolves once Remix has decoded the page's data, which its first render waits for by suspending. React 18 cannot
 * suspend a hydration that a click or key press forces to finish at once: an event between hydrateRoot and its
 * first render threw React's error 345 and left the page without its scripts for good. RemixBrowser's first call
 * starts the decoding and throws its promise before any hook runs, so calling it once, outside React, hands over
 * that promise; the render React makes after it no longer suspends.
 */
function pageDataDecoded(): Promise<unknown> {
  try {
    RemixBrowser({});
  } catch (thrown) {
    if (thrown instanceof Promise) return thrown;
  }
  return Promise.resolve();
}

void pageDataDecoded().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  }),
);
