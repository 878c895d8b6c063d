import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Outlet, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { formatCents, formatDate } from "~/domain/format";
import { afterCheckoutUrls, BANK_ASKS_TO_CONFIRM } from "~/domain/renewals";
import { payNowPage, payNowPost } from "~/server/orders/pay-now.server";
import { describeCard } from "~/domain/payment-cards";
import { PaymentStep } from "~/ui/billing/payment-step";
import { Button, LinkButton } from "~/ui/button";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { RouteDrawer } from "~/ui/route-dialogs";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Text, Title } from "~/ui/typography";

export const links: LinksFunction = () => FORM_STYLES;

/**
 * Pay now for a renewal whose payment failed, over the invoices: choose the card (add or replace it in the
 * account's drawers), then confirm the exact amount; the payment is collected once by a durable job.
 */
export const loader = ({ request, params }: LoaderFunctionArgs) => payNowPage(request, params.invoiceId ?? "");
export const action = ({ request, params }: ActionFunctionArgs) => payNowPost(request, params.invoiceId ?? "");

export default function PayNow() {
  const { invoice, payment, refusals, confirm } = useLoaderData<typeof loader>();
  const problem = useActionData<typeof action>()?.message;
  const navigation = useNavigation();
  const here = afterCheckoutUrls.payNow(invoice.id);
  const amount = formatCents(invoice.amountDue);
  return (
    <RouteDrawer title={`Pay invoice ${invoice.number}`} closeTo={afterCheckoutUrls.invoices}>
      <Stack gap="md">
        <Text>
          {invoice.license
            ? `The renewal of ${invoice.license.name} (license ${invoice.license.externalLicenseId}) could not be charged. `
            : null}
          <strong>{amount}</strong> is due
          {invoice.license ? `; the license stops on ${formatDate(invoice.license.stopsOn)} unless it is paid` : ""}.
        </Text>
        {invoice.bankAsks ? <Text>{BANK_ASKS_TO_CONFIRM}</Text> : null}
        {problem ? (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        ) : null}
        {confirm ? (
          <Form method="post">
            <AuthenticityTokenInput name="csrf" />
            <input type="hidden" name="orderKey" value={confirm.key} />
            <input type="hidden" name="payment_source_id" value={confirm.card.id} />
            <Stack gap="md">
              <Title order={3}>Confirm your payment</Title>
              <Text>
                Your {describeCard(confirm.card)} will be charged <strong data-testid="pay-amount">{amount}</strong>{" "}
                now, once, for invoice {invoice.number}.
              </Text>
              {refusals[confirm.card.id] ? (
                <Text c="red.9" fw={600} role="alert">
                  {refusals[confirm.card.id]}
                </Text>
              ) : null}
              <Group justify="space-between">
                <LinkButton to={here} variant="default">
                  Change card
                </LinkButton>
                <Button
                  type="submit"
                  name="intent"
                  value="pay"
                  loading={navigation.state !== "idle" && navigation.formData?.get("intent") === "pay"}
                  loadingLabel="Paying"
                >
                  {`Pay ${amount} now`}
                </Button>
              </Group>
            </Stack>
          </Form>
        ) : (
          <PaymentStep
            data={payment}
            nextLabel="Next: Confirm Payment"
            previousTo={afterCheckoutUrls.invoices}
            drawerBase={here}
            withAddresses={false}
            refusals={refusals}
          />
        )}
        <Outlet />
      </Stack>
    </RouteDrawer>
  );
}

export const ErrorBoundary = PageErrorBoundary;
