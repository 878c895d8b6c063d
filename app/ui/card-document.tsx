import { useMatches, useRouteLoaderData } from "@remix-run/react";
import { createContext, useContext, type ReactNode } from "react";

/**
 * The handle of a route whose page may show a card form (app/ui/card-entry.tsx). With CARD_PROVIDER=stripe only a
 * document whose routes take a card has a Content-Security-Policy that lets Stripe.js load (scripts/server.mjs,
 * decision 228). A type, not a shared constant: a value imported by both the root and the routes would be a script
 * chunk of its own on every page.
 */
export type CardEntryHandle = { cardEntry: true };

const takesCard = (handle: unknown) => (handle as Partial<CardEntryHandle> | undefined)?.cardEntry === true;

/** What the root loader says of the card provider. */
export type CardProviderData = { cardsAtStripe: boolean };

interface CardDocument {
  /** CARD_PROVIDER=stripe. */
  atStripe: boolean;
  /** Whether this document's policy lets Stripe.js load: it was loaded on a route that takes a card. */
  stripeLoads: boolean;
}

// Outside the root (a component rendered on its own) nothing is known of the document: Stripe.js is tried.
const CardDocumentContext = createContext<CardDocument>({ atStripe: true, stripeLoads: true });

/** In the browser, whether the one document was loaded on a card route: fixed at hydration, its first render. */
let loadedOnCardRoute: boolean | undefined;

/** Provides the document's card policy; rendered by the root's document, so that its first render is the hydration. */
export function CardDocumentProvider({ children }: { children: ReactNode }) {
  const here = useMatches().some((match) => takesCard(match.handle));
  const atStripe = useRouteLoaderData<CardProviderData>("root")?.cardsAtStripe ?? false;
  // On the server every render is a document of its own; in the browser every later page renders into the one the
  // server rendered, under that document's policy.
  const stripeLoads = typeof document === "undefined" ? here : (loadedOnCardRoute ??= here);
  return <CardDocumentContext.Provider value={{ atStripe, stripeLoads }}>{children}</CardDocumentContext.Provider>;
}

/**
 * Whether a link into a card route must load a new document: with Stripe, from a document whose policy does not let
 * Stripe.js load. Without JavaScript every link does anyway.
 */
export function useCardLinksReload(): boolean {
  const { atStripe, stripeLoads } = useContext(CardDocumentContext);
  return atStripe && !stripeLoads;
}

/** Whether Stripe.js may load in this document (else a card form reached client-side reloads its page). */
export const useStripeLoads = () => useContext(CardDocumentContext).stripeLoads;
