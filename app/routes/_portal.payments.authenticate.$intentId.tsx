import type { ActionFunctionArgs, HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { formatCents } from "~/domain/format";
import { AUTHENTICATED_JOB_FIELD } from "~/domain/billing-views";
import { paymentAuthenticationAction, paymentAuthenticationLoader } from "~/server/payment-authentication.server";
import { ChooseAnotherCard } from "~/ui/billing/payment-step";
import { LinkButton } from "~/ui/button";
import { authenticateWithChargebee } from "~/ui/billing/chargebee-3ds";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { RouteModal } from "~/ui/route-dialogs";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Text } from "~/ui/typography";
import { WAITING_FOR_CARDHOLDER } from "~/ui/wizard/job-progress";

export const links: LinksFunction = () => FORM_STYLES;

/**
 * Where the cardholder authenticates a payment their bank asks about, when the billing provider has no bank page
 * of its own for a card (Chargebee, decision 226): Chargebee.js opens the bank's challenge, then the page posts back
 * and the job's progress page says what came of it. Without JavaScript the challenge cannot run: the page says so,
 * and offers another card and the way back to the progress page.
 */
export const loader = (args: LoaderFunctionArgs) => paymentAuthenticationLoader(args);
export const action = (args: ActionFunctionArgs) => paymentAuthenticationAction(args);

/** The loader's policy, which names Chargebee.js's hosts, replaces the server's on this page only. */
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const policy = loaderHeaders.get("Content-Security-Policy");
  return policy ? { "Content-Security-Policy": policy } : new Headers();
};

export const NEEDS_JAVASCRIPT =
  "Your bank's check of this payment needs JavaScript in this browser. Turn JavaScript on and reload this page, or choose another card.";

/** What the page shows while it runs, and when Chargebee.js could not. */
type Stage = "without-script" | "authenticating" | "not-loaded";

export default function AuthenticatePayment() {
  const { jobId, amount, progressUrl, chargebee, cards } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const [stage, setStage] = useState<Stage>("without-script");
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  const here = useLocation().pathname;
  useEffect(() => {
    if (!chargebee) return;
    setStage("authenticating");
    let left = false;
    authenticateWithChargebee(chargebee).then(
      // The bank answered, or the cardholder closed the challenge: the portal asks Chargebee which.
      () => {
        if (!left && form.current) submit(form.current);
      },
      () => {
        if (!left) setStage("not-loaded");
      },
    );
    return () => {
      left = true;
    };
  }, [chargebee, submit]);

  return (
    <RouteModal title={WAITING_FOR_CARDHOLDER} closeTo={progressUrl}>
      <Stack gap="md">
        <Text>This payment is {formatCents(amount)}. Nothing has been charged yet.</Text>
        {stage === "authenticating" ? (
          answer && "message" in answer ? (
            <Alert color="yellow" role="status" title="Not confirmed yet">
              {answer.message} <a href={here}>Try again</a>
            </Alert>
          ) : (
            <Text role="status">Your bank&apos;s check opens on this page. Follow what your bank asks.</Text>
          )
        ) : (
          <Alert color="yellow" role="status" title="This payment cannot be confirmed here">
            {stage === "not-loaded"
              ? "Your bank's check could not be loaded in this browser. Reload this page, or choose another card."
              : NEEDS_JAVASCRIPT}
          </Alert>
        )}
        <Form method="post" ref={form} hidden>
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name={AUTHENTICATED_JOB_FIELD} value={jobId} />
        </Form>
        <Group justify="flex-end">
          <LinkButton to={progressUrl} variant="default">
            Back to the progress page
          </LinkButton>
        </Group>
        <ChooseAnotherCard cards={cards} drawerBase={progressUrl} />
      </Stack>
    </RouteModal>
  );
}

export const ErrorBoundary = PageErrorBoundary;
