import type { BrowserContext, Route } from "@playwright/test";
import { INVALID_NUMBER, STRIPE_PAGES, TEST_CARD_NUMBERS, type StripeFake } from "../tests/fakes/stripe";

/**
 * A stand-in for Stripe.js, for a browser with no way to Stripe: the part of it the portal's card entry uses.
 * `Stripe(publishableKey)` (the global @stripe/stripe-js's loader waits for, with the release it expects as its
 * version) gives `elements().create("card")`, whose mount puts a plain 'Card number' field where Stripe's iframe
 * would be, and `confirmCardSetup`, which confirms the SetupIntent on api.stripe.com as Stripe.js does: the
 * payment method of the Stripe test card typed in, the client secret and the publishable key in a form POST (no
 * preflight), answering `{ setupIntent }` or Stripe's `{ error }`. Only `handleActions: false` is supported: the
 * portal sends the cardholder to the bank itself.
 */
export const STRIPE_JS_STUB = `(() => {
  const numbers = ${JSON.stringify(TEST_CARD_NUMBERS)};
  const invalidNumber = ${JSON.stringify(INVALID_NUMBER)};
  const digitsOf = (input) => input.value.replace(/\\s/g, "");
  function Stripe(key) {
    return {
      elements: () => ({
        create(type) {
          if (type !== "card") throw new Error("The Stripe.js stub has only the card element, not " + type);
          const input = document.createElement("input");
          input.setAttribute("aria-label", "Card number");
          input.autocomplete = "cc-number";
          input.inputMode = "numeric";
          const listeners = [];
          input.addEventListener("input", () => {
            const digits = digitsOf(input);
            const complete = Boolean(numbers[digits]);
            const error = digits.length >= 16 && !complete
              ? { type: "validation_error", code: "invalid_number", message: invalidNumber }
              : undefined;
            for (const listener of listeners) listener({ elementType: "card", empty: !digits, complete, error });
          });
          return {
            input,
            mount: (target) => target.appendChild(input),
            destroy: () => input.remove(),
            on: (event, listener) => event === "change" && listeners.push(listener),
          };
        },
      }),
      async confirmCardSetup(clientSecret, data, options) {
        if (!options || options.handleActions !== false) throw new Error("The Stripe.js stub only confirms with handleActions: false");
        const paymentMethod = numbers[digitsOf(data.payment_method.card.input)];
        if (!paymentMethod) return { error: { type: "validation_error", code: "invalid_number", message: invalidNumber } };
        const body = new URLSearchParams({ payment_method: paymentMethod, client_secret: clientSecret, key });
        if (data.return_url) body.set("return_url", data.return_url);
        const id = clientSecret.split("_secret_")[0];
        const response = await fetch("https://api.stripe.com/v1/setup_intents/" + id + "/confirm", { method: "POST", body });
        const answer = await response.json();
        return response.ok ? { setupIntent: answer } : { error: answer.error };
      },
    };
  }
  Stripe.version = "endive";
  window.Stripe = Stripe;
})();`;

/**
 * Routes the browser's requests to Stripe to the test's own: Stripe.js is the stub above; the API (with the CORS
 * header Stripe's API answers a page with), the bank's page and Checkout are the fake's, on its port.
 */
export async function routeStripe(context: BrowserContext, fake: StripeFake) {
  await context.route("https://js.stripe.com/**", (route) =>
    route.fulfill({ contentType: "text/javascript", body: STRIPE_JS_STUB }),
  );
  const toFake = async (route: Route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({
      url: `http://127.0.0.1:${fake.port}${url.pathname}${url.search}`,
      maxRedirects: 0,
    });
    await route.fulfill({ response, headers: { ...response.headers(), "access-control-allow-origin": "*" } });
  };
  for (const origin of ["https://api.stripe.com", STRIPE_PAGES.hooks, STRIPE_PAGES.checkout]) {
    await context.route(`${origin}/**`, toFake);
  }
}
