import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useParams } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { formatDate } from "~/domain/format";
import { NOT_AN_INVOICE, QUOTE_ACCEPT_LABELS, QUOTE_LINK_GONE, quoteUrls } from "~/domain/quotes";
import { quoteLinkAction, quoteLinkPageData } from "~/server/quotes/quote-links.server";
import { AuthPage, FormAlert, FormDone } from "~/ui/auth-page";
import type { PlainPageHandle } from "~/ui/page-script";
import { PlainField } from "~/ui/plain-field";
import { LIST_STYLES } from "~/ui/stylesheets";
import { OrderSummary } from "~/ui/wizard/order-summary";

export const meta: MetaFunction = () => [{ title: "Quote · GateKeeper Portal" }];

export const handle: PlainPageHandle = { plainPage: true };

export const links: LinksFunction = () => LIST_STYLES;

export const loader = ({ params, context }: LoaderFunctionArgs) => quoteLinkPageData(context, params.token ?? "");

export const action = ({ request, params, context }: ActionFunctionArgs) =>
  quoteLinkAction(request, context, params.token ?? "");

/**
 * A quote's mailed link, for whoever holds it, with no account: the quote read-only, its PDF, and 'Accept this
 * quote' with the accepter's name and an optional PO number while it is open. A plain form post (no script).
 */
export default function QuoteLink() {
  const { quote } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { token = "" } = useParams();
  if (!quote) {
    return (
      <AuthPage title="Quote">
        <FormAlert title="This quote cannot be opened" message={QUOTE_LINK_GONE} />
      </AuthPage>
    );
  }
  const typed = answer && "typed" in answer ? answer.typed : null;
  const errors: Record<string, string | undefined> = answer && "fieldErrors" in answer ? answer.fieldErrors : {};
  return (
    <AuthPage
      wide
      title={`Quote ${quote.number}`}
      lead={`For ${quote.organizationName}, from ${quote.madeByName} of ${quote.makerOrganization}, made on ${formatDate(quote.quotedAt)}. Valid until ${formatDate(quote.validUntil)}.`}
    >
      <OrderSummary estimate={quote.estimate} caption={NOT_AN_INVOICE} />
      <p>
        <a className="gk-link" href={quoteUrls.linkPdf(token)}>
          Download PDF
        </a>
      </p>
      {answer && "accepted" in answer ? (
        <FormDone>
          <p className="gk-alert-title">You accepted quote {quote.number}.</p>
          <p>
            {quote.makerOrganization} has been told
            {quote.poNumber ? `, with your PO number ${quote.poNumber}` : ""}, and will place the order.
          </p>
        </FormDone>
      ) : answer && "formError" in answer ? (
        <FormAlert title="The quote was not accepted" message={answer.formError} />
      ) : quote.closed ? (
        <FormAlert title="This quote cannot be accepted" message={quote.closed} />
      ) : null}
      {quote.status === "open" ? (
        <Form method="post" noValidate className="gk-stack" data-gap="sm" aria-label="Accept this quote">
          <AuthenticityTokenInput name="csrf" />
          <PlainField
            name="name"
            label={QUOTE_ACCEPT_LABELS.name}
            autoComplete="name"
            required
            defaultValue={typed?.name}
            error={errors.name}
          />
          <PlainField
            name="poNumber"
            label={QUOTE_ACCEPT_LABELS.poNumber}
            autoComplete="off"
            defaultValue={typed?.poNumber}
            error={errors.poNumber}
          />
          <button type="submit" className="gk-button gk-button-block" data-variant="filled">
            {QUOTE_ACCEPT_LABELS.submit}
          </button>
        </Form>
      ) : null}
    </AuthPage>
  );
}
