/** What scripts/server.mjs gives every loader and action (absent when a test calls them directly). */
declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** The client's address: the socket's, or the one TRUST_PROXY trusted proxies forwarded. */
    clientAddress?: string;
    /** This response's Content-Security-Policy nonce. */
    cspNonce?: string;
    /** This response's Content-Security-Policy (its nonce included), which a page may widen for itself. */
    contentSecurityPolicy?: string;
  }
}

export {};
