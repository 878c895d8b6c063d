/**
 * Marks beyond Latin-1 that are on many pages, as HTML character references for `dangerouslySetInnerHTML`.
 * One character beyond Latin-1 anywhere in a page makes V8 hold the whole rendered page as a two-byte string,
 * so every copy of it on the server (joining the render, encoding it to bytes) is twice the size: 10 % of
 * what a plan-step request allocated, for the menu icon alone (decision 141). The browser shows the character.
 */
export const SYMBOL_HTML = {
  /** ☰ U+2630, the menu icon of the frame (every page). */
  menu: { __html: "&#9776;" },
  /** ✓ U+2713, a done step in a wizard's stepper (every wizard step after the first). */
  check: { __html: "&#10003;" },
} as const;
