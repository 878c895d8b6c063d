/**
 * The payment step of the purchase, update and trial wizards.
 *
 * Server (app/server/account-billing/billing-details.server.ts):
 *   loadPaymentStep(user): Promise<PaymentStepData>   what the step shows; { status: "error" } when the
 *                                                      cards or the customer fail to load
 *   choosePayment(user, formData): Promise<PaymentChoice>   for the step's action: the posted
 *                                                      payment_source_id checked against the user's own
 *                                                      usable cards and the address rule; { ok: false,
 *                                                      message } saying what to fix otherwise
 * Browser (this module):
 *   <PaymentStep data={PaymentStepData} nextLabel="Next: Order" previousTo?="/…/review" drawerBase="/…/billing"
 *                withAddresses?={true} newCard?={<CardForm … intent="add-card" />} />
 *
 * The step is a <Form method="post"> (CSRF token included) to its route's action, posting
 * payment_source_id (the chosen card's radio; the primary card, else the first usable one, is chosen at
 * first) and intent = "next" or, when `previousTo` is not given, "previous" (Previous is then a submit, so
 * the choice is saved either way). Next is disabled, with the reason written under it, while no usable card
 * is chosen ('Please add and select a valid payment method.') or the addresses are not valid ('Please make
 * sure billing & shipping address are valid.'). 'Error' replaces the step when loading failed.
 *
 * Its links open the billing drawers as child routes of the step's route: `${drawerBase}/cards/new`,
 * `${drawerBase}/cards/:sourceId/replace`, `${drawerBase}/profile` and `${drawerBase}/shipping`. The step's
 * route renders <Outlet /> and mounts each drawer with a route module of a few lines (see
 * app/server/account-billing/drawers.server.ts); a drawer's save redirects back to `drawerBase`, whose loader then
 * reads the new card or address.
 *
 * The trials' mode: `withAddresses={false}` leaves out the address panels and their rule (a trial has its
 * own shipping address step), and `newCard` is shown in place of the cards table while there is no card:
 * its route's action adds the card and goes on.
 */
import { Text } from "~/ui/typography";
import { Form } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { isUsableSource, paymentStepBlockers } from "~/domain/payment-step";
import { Button, LinkButton } from "~/ui/button";
import { Group, Stack } from "~/ui/layout";
import { AddressPanels } from "./address-panels";
import { BillingProfilePending } from "./drawer";
import { PaymentMethodsSection, type CardRefusals } from "./payment-methods";
import { WAITING_ON_FIELD, type AnotherCardData, type PaymentStepData } from "~/domain/billing-views";

export interface PaymentStepProps {
  data: PaymentStepData;
  /** The Next button's text, e.g. 'Next: Order'. */
  nextLabel: string;
  /**
   * Previous as a link to this URL; without it, Previous submits the form with intent "previous"; null: no Previous
   * (a page that is no wizard's step).
   */
  previousTo?: string | null;
  /** The step's own URL, under which its drawers are mounted. */
  drawerBase: string;
  /** The query of the step's URL (`?customer=…`), which its drawers' URLs keep so that they close back to it. */
  drawerSearch?: string;
  /** Whether the billing and shipping addresses are shown and must be valid (the purchase wizards). */
  withAddresses?: boolean;
  /** The new-card form shown in place of the cards while there is none (the trials). */
  newCard?: ReactNode;
  /** Hidden fields the form posts besides the choice. */
  hiddenFields?: ReactNode;
  /** Where the form posts, when not to its own route's action. */
  action?: string;
  /** The provider's words next to a card it declined (pay now). */
  refusals?: CardRefusals;
}

export function PaymentStep({ data, ...props }: PaymentStepProps) {
  if (data.status === "error") {
    return (
      <Text c="red.9" fw={600} role="alert">
        Error
      </Text>
    );
  }
  return <ReadyPaymentStep data={data} {...props} />;
}

function ReadyPaymentStep({
  data,
  nextLabel,
  previousTo,
  drawerBase,
  drawerSearch = "",
  withAddresses = true,
  newCard,
  refusals,
  hiddenFields,
  action,
}: PaymentStepProps & { data: Extract<PaymentStepData, { status: "ready" }> }) {
  const [selected, setSelected] = useState(data.preselectedSourceId);
  // After a drawer added or replaced a card, the step starts again from the new preselection.
  useEffect(() => setSelected(data.preselectedSourceId), [data.preselectedSourceId]);
  const chosen = data.sources.find((source) => source.id === selected);
  const blockers = paymentStepBlockers(
    Boolean(chosen && isUsableSource(chosen)),
    !withAddresses || data.addressesValid,
  );

  if (newCard && data.sources.length === 0) {
    return (
      <Stack gap="md">
        {newCard}
        {previousTo ? (
          <LinkButton to={previousTo} variant="default" style={{ alignSelf: "flex-start" }}>
            Previous
          </LinkButton>
        ) : null}
      </Stack>
    );
  }
  return (
    <>
      <Form method="post" action={action} preventScrollReset>
        <AuthenticityTokenInput name="csrf" />
        {hiddenFields}
        <Stack gap="lg">
          <PaymentMethodsSection
            sources={data.sources}
            drawerBase={drawerBase}
            drawerSearch={drawerSearch}
            selection={{ name: "payment_source_id", value: selected, onChange: setSelected }}
            refusals={refusals}
          />
          {withAddresses ? (
            <AddressPanels
              billing={data.billingAddress}
              shipping={data.shippingAddress}
              profileTo={`${drawerBase}/profile${drawerSearch}`}
              shippingTo={`${drawerBase}/shipping${drawerSearch}`}
            />
          ) : null}
          {/* Next comes first in the markup so that Enter in the form means Next, not Previous; the row shows Previous first. */}
          <Group justify="space-between" align="flex-start" style={{ flexDirection: "row-reverse" }}>
            <Stack gap={4} align="flex-end">
              <Button
                type="submit"
                name="intent"
                value="next"
                disabled={blockers.length > 0}
                aria-describedby={blockers.length ? "payment-step-blockers" : undefined}
              >
                {nextLabel}
              </Button>
              <div id="payment-step-blockers">
                {blockers.map((blocker) => (
                  <Text size="sm" key={blocker} ta="right">
                    {blocker}
                  </Text>
                ))}
              </div>
            </Stack>
            {previousTo === null ? null : previousTo ? (
              <LinkButton to={previousTo} variant="default">
                Previous
              </LinkButton>
            ) : (
              <Button type="submit" name="intent" value="previous" variant="default">
                Previous
              </Button>
            )}
          </Group>
        </Stack>
      </Form>
      <BillingProfilePending drawerBase={drawerBase} />
    </>
  );
}

/**
 * 'Choose another card' for a charge that waits for the cardholder's bank: the organization's cards, with the card
 * drawers mounted under its progress page (`drawerBase`), whose action starts the same job over on the one chosen,
 * when it still waits on the payment intent the page showed (also from the page where the cardholder authenticates).
 */
export function ChooseAnotherCard({ cards, drawerBase }: { cards: AnotherCardData | null; drawerBase: string }) {
  if (!cards) return null;
  return (
    <PaymentStep
      data={cards.step}
      hiddenFields={<input type="hidden" name={WAITING_ON_FIELD} value={cards.waitingOn} />}
      nextLabel="Choose another card"
      previousTo={null}
      drawerBase={drawerBase}
      action={drawerBase}
      withAddresses={false}
    />
  );
}
