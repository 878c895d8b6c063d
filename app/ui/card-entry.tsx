import { Text } from "~/ui/typography";
import { useEffect, useRef, useState } from "react";
// The pure loader adds Stripe.js's script only when called: the main entry would add it on import, on every page.
import { loadStripe } from "@stripe/stripe-js/pure";
import type { Stripe, StripeCardElement } from "@stripe/stripe-js";
import { CARD_ENTRY_AT_STRIPE } from "~/domain/card-entry";
import { useStripeLoads } from "./card-document";
import { Group } from "~/ui/layout";
import { InputWrapper, TextInput } from "./inputs";

/**
 * Card entry for the payment drawers and the trial payment step, inside the caller's <form>.
 * - local (the embedded test tokenizer): plain fields that post card_number, card_expiry and card_cvc,
 *   so a card can be added without JavaScript; the server checks them and keeps no number.
 * - stripe: Stripe's card element, mounted by Stripe.js (loaded from Stripe only where this renders); on
 *   submit Stripe.js confirms the page's SetupIntent with the card and the form posts the SetupIntent's id as
 *   card_setup, so the number never reaches the portal. Without JavaScript card_setup posts "checkout", and
 *   the card is entered on Stripe's Checkout page instead, which the page says.
 * The server's message for the card ('Cannot be empty.' or the provider's) comes in as `error`.
 */
export type StripeEntry = { mode: "stripe"; publishableKey: string; clientSecret: string; returnUrl: string };
export type CardEntryProps = ({ mode: "local" } | StripeEntry) & { error?: string };

export function CardEntry(props: CardEntryProps) {
  return props.mode === "stripe" ? (
    <StripeCardEntry {...props} />
  ) : (
    <Group grow align="flex-start">
      <TextInput
        name="card_number"
        label="Card number"
        placeholder="4242 4242 4242 4242"
        inputMode="numeric"
        autoComplete="cc-number"
        required
        error={props.error}
        style={{ flexGrow: 2 }}
      />
      <TextInput name="card_expiry" label="Expiry" placeholder="MM / YY" autoComplete="cc-exp" required />
      <TextInput
        name="card_cvc"
        label="Security code"
        placeholder="CVC"
        inputMode="numeric"
        autoComplete="cc-csc"
        required
      />
    </Group>
  );
}

/** The holder's name and address from the surrounding card form, as Stripe's billing details. */
function billingDetails(form: HTMLFormElement) {
  const value = (name: string) => {
    const field = form.elements.namedItem(name);
    return field instanceof HTMLInputElement || field instanceof HTMLSelectElement ? field.value : "";
  };
  return {
    name: `${value("first_name")} ${value("last_name")}`.trim(),
    address: {
      line1: value("address_line1"),
      line2: value("address_line2"),
      city: value("address_city"),
      state: value("address_state"),
      postal_code: value("address_zip"),
      country: value("address_country"),
    },
  };
}

function StripeCardEntry({ publishableKey, clientSecret, returnUrl, error }: StripeEntry & { error?: string }) {
  const mountPoint = useRef<HTMLDivElement>(null);
  const setupField = useRef<HTMLInputElement>(null);
  // What card_setup posts: "checkout" as served (without JavaScript the card is entered on Stripe's Checkout page),
  // nothing while Stripe.js takes the card, then the confirmed SetupIntent's id. Written into the field at once,
  // for the submit that reads it, and kept in state: React writes the field's rendered value back on every render,
  // so a value only written into the field went back to "checkout" at the next one (a corrected card number, say)
  // and the form went to Checkout.
  const [setup, setSetup] = useState("checkout");
  const putSetup = (value: string) => {
    if (setupField.current) setupField.current.value = value;
    setSetup(value);
  };
  const [message, setMessage] = useState<string | undefined>(error);
  const stripeLoads = useStripeLoads();
  useEffect(() => setMessage(error), [error]);

  useEffect(() => {
    // Reached by a client-side navigation from a page whose policy does not let Stripe.js load (a link or redirect
    // that does not load a document): the page is loaded again, as a document of its own, whose policy does.
    if (!stripeLoads) return window.location.reload();
    const element = mountPoint.current;
    const form = element?.closest("form");
    if (!element || !form) return;
    let card: StripeCardElement | undefined;
    let stripe: Stripe | undefined;
    // With JavaScript the card is entered here, not on Stripe's Checkout page: the setup comes from Stripe.js.
    putSetup("");

    // Hold the submit until Stripe.js has confirmed the SetupIntent, then submit again with its id (Remix's own
    // handler runs then). Next actions are the portal's: a bank that asks sends the cardholder to its page through
    // the server, as the embedded provider's does. A refusal shows under the card: the held submit ends there.
    const onSubmit = (event: SubmitEvent) => {
      if (!stripe || !card || setupField.current?.value) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      stripe
        .confirmCardSetup(
          clientSecret,
          { payment_method: { card, billing_details: billingDetails(form) }, return_url: returnUrl },
          { handleActions: false },
        )
        .then((result) => {
          const confirmed = result.setupIntent;
          if (!confirmed) return setMessage(result.error?.message ?? "Cannot be empty.");
          putSetup(confirmed.id);
          form.requestSubmit(event.submitter instanceof HTMLElement ? event.submitter : undefined);
        })
        .catch((failure: Error) => setMessage(failure.message));
    };
    form.addEventListener("submit", onSubmit);

    loadStripe(publishableKey)
      .then((loaded) => {
        if (!loaded) return setMessage("Stripe.js did not load.");
        stripe = loaded;
        card = loaded.elements().create("card");
        card.mount(element);
        card.on("change", (change) => {
          putSetup("");
          setMessage(change.error?.message);
        });
      })
      .catch((failure: Error) => setMessage(failure.message));
    return () => {
      form.removeEventListener("submit", onSubmit);
      card?.destroy();
    };
  }, [stripeLoads, publishableKey, clientSecret, returnUrl]);

  return (
    <InputWrapper label="Card details" error={message} id="card-element-label">
      <div ref={mountPoint} className="gk-card-element" />
      {/* Without JavaScript this posts "checkout": the server sends the cardholder to Stripe's Checkout page. */}
      <input ref={setupField} type="hidden" name="card_setup" value={setup} />
      <noscript>
        <Text size="sm">{CARD_ENTRY_AT_STRIPE}</Text>
      </noscript>
    </InputWrapper>
  );
}
