import { MantineProvider } from "@mantine/core";
import { renderToString } from "react-dom/server";
import { CARD_FIELDS } from "~/server/cards/port.server";
import { CARD_ENTRY_NEEDS_JAVASCRIPT } from "~/domain/card-entry";
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
    expect(html).not.toContain(CARD_FIELDS.token);
  });

  it("has no card number field with Stripe, and says plainly that card entry needs JavaScript", () => {
    const html = render({ mode: "stripe", publishableKey: "pk_test_123" });
    expect(html).not.toContain(`name="${CARD_FIELDS.number}"`);
    expect(html).toContain(`name="${CARD_FIELDS.token}"`);
    expect(html).toContain(`<noscript>`);
    expect(html).toContain(CARD_ENTRY_NEEDS_JAVASCRIPT);
  });
});
