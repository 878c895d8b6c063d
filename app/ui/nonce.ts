import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of this response (set by scripts/server.mjs), so that the inline scripts
 * the document renders (Remix's, Mantine's colour scheme) may run. In the browser it is empty: the scripts
 * have run by then, and browsers hide a nonce from the DOM anyway.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
