/**
 * Chargebee.js's 3DS handler in the browser (decision 226): Chargebee authenticates a card's payment intent only
 * there. Chargebee.js is loaded from Chargebee's servers (it may not be served from elsewhere) when the page that
 * needs it runs, so no other page loads it.
 */

const CHARGEBEE_JS = "https://js.chargebee.com/v2/chargebee.js";

/** The part of Chargebee.js the portal uses. */
interface ChargebeeJs {
  init(options: { site: string; publishableKey: string }): {
    load3DSHandler(): Promise<{
      setPaymentIntent(paymentIntent: unknown): void;
      handleCardPayment(
        paymentInfo: Record<string, never>,
        callbacks: { success(): void; error(): void },
      ): Promise<unknown> | undefined;
    }>;
  };
}

declare global {
  interface Window {
    Chargebee?: ChargebeeJs;
  }
}

function loadChargebeeJs(): Promise<ChargebeeJs> {
  if (window.Chargebee) return Promise.resolve(window.Chargebee);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = CHARGEBEE_JS;
    script.onload = () => (window.Chargebee ? resolve(window.Chargebee) : reject(new Error("No Chargebee.js")));
    script.onerror = () => reject(new Error("Chargebee.js did not load"));
    document.head.appendChild(script);
  });
}

/**
 * Runs the bank's challenge for the payment intent, as Chargebee gave it, on a card the customer saved (so no card
 * details are passed). Resolves once the bank answered or the challenge ended, whichever way: the portal then reads
 * the intent from Chargebee, never from the browser. Rejects when Chargebee.js could not be loaded or started.
 */
export async function authenticateWithChargebee(settings: { site: string; publishableKey: string; intent: unknown }) {
  const chargebee = (await loadChargebeeJs()).init({ site: settings.site, publishableKey: settings.publishableKey });
  const handler = await chargebee.load3DSHandler();
  handler.setPaymentIntent(settings.intent);
  await new Promise<void>((done) => {
    const ended = () => done();
    Promise.resolve(handler.handleCardPayment({}, { success: ended, error: ended })).then(ended, ended);
  });
}
