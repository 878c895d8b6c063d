import { Text } from "~/ui/typography";
import { useEffect, useRef, useState } from "react";
import { CARD_ENTRY_NEEDS_JAVASCRIPT } from "~/domain/card-entry";
import { Group } from "~/ui/layout";
import { InputWrapper, TextInput } from "./inputs";

/**
 * Card entry for the payment drawers and the trial payment step, inside the caller's <form>.
 * - local (the embedded test tokenizer): plain fields that post card_number, card_expiry and card_cvc,
 *   so a card can be added without JavaScript; the server checks them and keeps no number.
 * - stripe: Stripe's card element, mounted by Stripe.js; on submit it turns the card into a token posted
 *   as card_token, so the number never reaches the portal. It cannot work without JavaScript, and says so.
 * The server's message for the card ('Cannot be empty.' or the provider's) comes in as `error`.
 */
export type CardEntryProps = ({ mode: "local" } | { mode: "stripe"; publishableKey: string }) & { error?: string };

export function CardEntry(props: CardEntryProps) {
  return props.mode === "stripe" ? (
    <StripeCardElement publishableKey={props.publishableKey} error={props.error} />
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

/** The little of Stripe.js this component uses. */
interface StripeJs {
  elements(): { create(type: "card"): StripeCard };
  createToken(
    card: StripeCard,
    data: Record<string, string>,
  ): Promise<{ token?: { id: string }; error?: { message?: string } }>;
}
interface StripeCard {
  mount(element: HTMLElement): void;
  destroy(): void;
  on(event: "change", handler: (change: { error?: { message: string } }) => void): void;
}
declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeJs;
  }
}

const STRIPE_JS = "https://js.stripe.com/v3/";

function loadStripe(): Promise<NonNullable<Window["Stripe"]>> {
  return new Promise((resolve, reject) => {
    if (window.Stripe) return resolve(window.Stripe);
    const script =
      document.querySelector<HTMLScriptElement>(`script[src="${STRIPE_JS}"]`) ??
      document.head.appendChild(Object.assign(document.createElement("script"), { src: STRIPE_JS, async: true }));
    script.addEventListener("load", () =>
      window.Stripe ? resolve(window.Stripe) : reject(new Error("Stripe.js did not load.")),
    );
    script.addEventListener("error", () => reject(new Error("Stripe.js did not load.")));
  });
}

/** The holder's name and address from the surrounding card form. */
function holderData(form: HTMLFormElement): Record<string, string> {
  const value = (name: string) => {
    const field = form.elements.namedItem(name);
    return field instanceof HTMLInputElement || field instanceof HTMLSelectElement ? field.value : "";
  };
  return {
    name: `${value("first_name")} ${value("last_name")}`.trim(),
    address_line1: value("address_line1"),
    address_line2: value("address_line2"),
    address_city: value("address_city"),
    address_state: value("address_state"),
    address_zip: value("address_zip"),
    address_country: value("address_country"),
  };
}

function StripeCardElement({ publishableKey, error }: { publishableKey: string; error?: string }) {
  const mountPoint = useRef<HTMLDivElement>(null);
  const tokenField = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<string | undefined>(error);
  useEffect(() => setMessage(error), [error]);

  useEffect(() => {
    const element = mountPoint.current;
    const form = element?.closest("form");
    if (!element || !form) return;
    let card: StripeCard | undefined;
    let stripe: StripeJs | undefined;

    // Hold the submit until Stripe has made the token, then submit again with it (Remix's own handler runs then).
    // A failure to make the token shows under the card: the submit it held back would otherwise end silently.
    const onSubmit = (event: SubmitEvent) => {
      if (!stripe || !card || tokenField.current?.value) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      stripe
        .createToken(card, holderData(form))
        .then((result) => {
          if (!result.token || !tokenField.current) return setMessage(result.error?.message ?? "Cannot be empty.");
          tokenField.current.value = result.token.id;
          form.requestSubmit(event.submitter instanceof HTMLElement ? event.submitter : undefined);
        })
        .catch((failure: Error) => setMessage(failure.message));
    };
    form.addEventListener("submit", onSubmit);

    loadStripe()
      .then((load) => {
        stripe = load(publishableKey);
        card = stripe.elements().create("card");
        card.mount(element);
        card.on("change", (change) => {
          if (tokenField.current) tokenField.current.value = "";
          setMessage(change.error?.message);
        });
      })
      .catch((failure: Error) => setMessage(failure.message));
    return () => {
      form.removeEventListener("submit", onSubmit);
      card?.destroy();
    };
  }, [publishableKey]);

  return (
    <InputWrapper label="Card details" error={message} id="card-element-label">
      <div ref={mountPoint} className="gk-card-element" />
      <input ref={tokenField} type="hidden" name="card_token" />
      <noscript>
        <Text c="red" size="sm" role="alert">
          {CARD_ENTRY_NEEDS_JAVASCRIPT}
        </Text>
      </noscript>
    </InputWrapper>
  );
}
