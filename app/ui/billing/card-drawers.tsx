import { Text, Title } from "~/ui/typography";
import { useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useField } from "remix-validated-form";
import { Stack } from "~/ui/layout";
import { CardEntry } from "../card-entry";
import { RouteDrawer } from "../route-dialogs";
import { AddressFields, CheckboxField, FormFailureAlert, NameFields, SaveButton } from "./form-parts";
import { describeCard } from "~/domain/payment-cards";
import { formatExpiry } from "./payment-methods";
import type { CardDrawerData } from "~/domain/billing-views";
import { cardFormValidator } from "~/domain/billing-validators";
import { ValidatedForm } from "~/ui/validated-form";
import type { CardEntryHandle } from "~/ui/card-document";

const FORM_ID = "payment-method";

/**
 * The handle of every route that renders a card form, a drawer's or a step's (`export { cardRouteHandle as handle }`):
 * with Stripe, its page's policy lets Stripe.js load.
 */
export const cardRouteHandle: CardEntryHandle = { cardEntry: true };

/**
 * The card: the embedded tokenizer's plain fields or Stripe's element (app/ui/card-entry.tsx), with the
 * error of the field "card" ('Cannot be empty.' or the provider's message). The plain fields are not the
 * validated form's own inputs, so leaving them checks the card like any other field.
 */
function CardField({ entry }: { entry: CardDrawerData["entry"] }) {
  const card = useField("card");
  if (entry.mode === "stripe") return <CardEntry {...entry} error={card.error} />;
  return (
    // Blur bubbles in React; no keyboard or pointer handling is added here.
    <div onBlur={() => void card.validate()}>
      <CardEntry mode="local" error={card.error} />
    </div>
  );
}

/** The card form: in a drawer, or inline in a step (which then posts `intent`, e.g. "add-card", to its own action). */
export function CardForm({ data, intent }: { data: Omit<CardDrawerData, "closeTo">; intent?: string }) {
  const { entry, idempotencyKey, defaults, replacing, countries } = data;
  return (
    <ValidatedForm id={FORM_ID} validator={cardFormValidator} method="post" defaultValues={defaults} noValidate>
      <Stack gap="sm">
        <AuthenticityTokenInput name="csrf" />
        <input type="hidden" name="idempotency_key" value={idempotencyKey} />
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        <FormFailureAlert />
        {replacing ? (
          <Text size="sm">
            Replacing {describeCard(replacing)}
            {replacing.card ? `, expiring ${formatExpiry(replacing.card.expiryMonth, replacing.card.expiryYear)}` : ""}.
          </Text>
        ) : null}
        <Title order={3} size="h5">
          Card details
        </Title>
        <CardField entry={entry} />
        <Title order={3} size="h5">
          Card holder and billing address
        </Title>
        <NameFields formId={FORM_ID} />
        <AddressFields formId={FORM_ID} prefix="address_" countries={countries} />
        <CheckboxField formId={FORM_ID} name="set_as_primary" label="Set as primary payment method" />
        <SaveButton
          formId={FORM_ID}
          label="Save Card"
          validator={cardFormValidator}
          unchangedHint="Enter the card and its holder's address to save."
          ignoreCard={entry.mode === "stripe"}
        />
      </Stack>
    </ValidatedForm>
  );
}

function CardFormDrawer({ title }: { title: string }) {
  const data = useLoaderData<CardDrawerData>();
  return (
    <RouteDrawer title={title} closeTo={data.closeTo}>
      <CardForm data={data} />
    </RouteDrawer>
  );
}

/** 'Create new payment method' (mount with newCardDrawer's loader and action). */
export function NewCardDrawer() {
  return <CardFormDrawer title="Create new payment method" />;
}

/** 'Replace payment method' (mount with replaceCardDrawer's loader and action, at a URL with :sourceId). */
export function ReplaceCardDrawer() {
  return <CardFormDrawer title="Replace payment method" />;
}
