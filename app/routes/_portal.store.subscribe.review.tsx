import { Text, Title } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { mayDo, readMemberForm, requireMember } from "~/server/accounts/access.server";
import { customerMayAcceptLabel, QUOTE_VALIDITY_DAYS } from "~/domain/quotes";
import { saveReviewAsQuote } from "~/server/quotes/quote-pages.server";
import {
  estimateDraft,
  estimateForPage,
  purchaseRight,
  subscriptionWizardOf,
} from "~/server/orders/new-subscription-wizard.server";
import { Button } from "~/ui/button";
import { Checkbox, TextInput } from "~/ui/inputs";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { EstimateOrError } from "~/ui/wizard/order-summary";
import { StepActions } from "~/ui/wizard/step-actions";

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, purchaseRight(request));
  const { wizard, customer } = await subscriptionWizardOf(member, request);
  const { data } = await wizard.load(member, "review");
  return json({
    // A quote for an end customer may let its Technical contacts accept it in the portal.
    quoteCustomer: customer.kind === "existing" ? customer.name : null,
    previousTo: wizard.urlOf("support"),
    organization: data.organization,
    mayQuote: mayDo(member, "quotes.manage"),
    ...(await estimateForPage(() => estimateDraft(member.organization, data, { withCoupon: false }))),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { member, formData, intent } = await readMemberForm(request, purchaseRight(request));
  // 'Save as quote': the same order, priced and dated as a quote; the draft stays for going on to billing.
  if (intent === "quote") return saveReviewAsQuote(member, request, formData);
  const { wizard } = await subscriptionWizardOf(member, request);
  return wizard.complete(member, "review", {});
}

export default function ReviewStep() {
  const { previousTo, organization, estimate, estimateError, mayQuote, quoteCustomer } = useLoaderData<typeof loader>();
  const quoteRefused = useActionData<typeof action>();
  const hydrated = useHydrated();
  return (
    <Form method="post">
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md" className="gk-printable">
        <Group justify="space-between">
          <Title order={3}>Review</Title>
          {hydrated ? (
            <Button variant="light" onClick={() => window.print()} className="gk-no-print">
              Print this out!
            </Button>
          ) : (
            <Text size="sm" className="gk-no-print">
              Print this out! Use your browser&apos;s Print command.
            </Text>
          )}
        </Group>
        <Text>
          Recurring license for <strong>{organization}</strong>
        </Text>
        <EstimateOrError estimate={estimate} error={estimateError} caption="Your order before any coupon" />
      </Stack>
      {mayQuote && estimate ? (
        <div className="gk-no-print">
          <Group gap="sm" align="flex-end" mt="lg">
            <TextInput
              name="validDays"
              label="Quote valid for (days)"
              inputMode="numeric"
              defaultValue={
                quoteRefused && "validDays" in quoteRefused
                  ? quoteRefused.validDays
                  : String(QUOTE_VALIDITY_DAYS.default)
              }
              error={quoteRefused && "fieldErrors" in quoteRefused ? quoteRefused.fieldErrors.validDays : undefined}
              w={180}
            />
            <Button type="submit" name="intent" value="quote" variant="default">
              Save as quote
            </Button>
          </Group>
          {quoteCustomer !== null ? (
            <Stack mt="sm">
              <Checkbox name="customerMayAccept" label={customerMayAcceptLabel(quoteCustomer)} />
            </Stack>
          ) : null}
        </div>
      ) : null}
      {quoteRefused && "formError" in quoteRefused && quoteRefused.formError ? (
        <Alert color="red">{quoteRefused.formError}</Alert>
      ) : null}
      <StepActions
        previousTo={previousTo}
        nextLabel="Next: Billing"
        disabledReason={estimate ? null : "The order could not be estimated. Please try again later."}
      />
    </Form>
  );
}

export const ErrorBoundary = PageErrorBoundary;
