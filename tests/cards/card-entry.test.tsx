import { MantineProvider } from "@mantine/core";
import { renderToString } from "react-dom/server";
import { CARD_FIELDS } from "~/server/cards/port.server";
import { CARD_ENTRY_AT_STRIPE } from "~/domain/card-entry";
import { CardEntry, type CardEntryProps } from "~/ui/card-entry";

/** The card entry as the server renders it: what a browser without JavaScript gets. */
const render = (props: CardEntryProps) =>
  renderToString(
    <MantineProvider>
      <form method="post">
        <CardEntry {...props} />
      </form>
    </MantineProvider>,
  );

describe("card entry", () => {
  it("posts plain card fields with the embedded tokenizer, so it works without JavaScript", () => {
    const html = render({ mode: "local", error: "Your card was declined." });
    for (const name of [CARD_FIELDS.number, CARD_FIELDS.expiry, CARD_FIELDS.cvc])
      expect(html).toContain(`name="${name}"`);
    expect(html).toMatch(/autocomplete="cc-number"/i);
    expect(html).toContain("Your card was declined.");
    expect(html).not.toContain(CARD_FIELDS.setup);
  });

  it("has no card number field with Stripe, and without JavaScript posts the way to Stripe's Checkout page", () => {
    const html = render({
      mode: "stripe",
      publishableKey: "pk_test_123",
      clientSecret: "seti_123_secret_456",
      returnUrl: "https://portal.example.com/account/cards/return",
    });
    expect(html).not.toContain(`name="${CARD_FIELDS.number}"`);
    expect(html).toMatch(new RegExp(`<input type="hidden" name="${CARD_FIELDS.setup}" value="checkout"/>`));
    expect(html).toContain(`<noscript>`);
    expect(html).toContain(CARD_ENTRY_AT_STRIPE.replace("'", "&#x27;"));
    // Stripe.js is loaded by the browser only where the card element mounts; the server's page names no script.
    expect(html).not.toContain("js.stripe.com");
  });
});
