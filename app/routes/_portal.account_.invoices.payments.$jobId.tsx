import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useParams } from "@remix-run/react";
import { formatCents } from "~/domain/format";
import { paymentProgress } from "~/server/progress-pages.server";
import { afterCheckoutUrls } from "~/domain/renewals";
import { ChooseAnotherCard } from "~/ui/billing/payment-step";
import { LinkButton } from "~/ui/button";
import { Alert, Group } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { JobProgressPage } from "~/ui/wizard/job-progress";

export const links: LinksFunction = () => FORM_STYLES;

/**
 * A payment's progress; "Try again" continues the same payment from where it stopped, never a second one. While its
 * charge waits for the cardholder's bank, the page sends them there and offers 'Choose another card'.
 */
export const loader = (args: LoaderFunctionArgs) => paymentProgress.loader(args);
export const action = (args: ActionFunctionArgs) => paymentProgress.action(args);

export default function PaymentProgress() {
  const { view, amount, payUrl, cards } = useLoaderData<typeof loader>();
  const here = afterCheckoutUrls.payment(useParams().jobId ?? "");
  return (
    <JobProgressPage
      title="Pay Now"
      closeTo="/account/invoices"
      view={view}
      label="Payment progress"
      runningText="Your payment is being collected. You can leave this page: it goes on, and is charged only once."
      editTo={payUrl}
      editLabel="Choose another card"
      success={
        <>
          <Alert color={ACCESSIBLE_GREEN} role="status" title={`Paid ${formatCents(amount)}. Thank you!`}>
            Your license is extended: download its new file on the Licenses page.
          </Alert>
          <Group justify="flex-end">
            <LinkButton to="/licenses">Go to Licenses</LinkButton>
          </Group>
        </>
      }
      waitingChoices={<ChooseAnotherCard cards={cards} drawerBase={here} />}
      below={<Outlet />}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
