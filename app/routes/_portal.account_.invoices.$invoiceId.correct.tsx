import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { formatDate } from "~/domain/format";
import { invoiceCorrectionValidator } from "~/domain/billing-validators";
import { afterCheckoutUrls } from "~/domain/renewals";
import { correctionPage, correctionPost } from "~/server/subscriptions/invoice-corrections.server";
import { fieldId, FormFailureAlert, NameFields, SaveButton } from "~/ui/billing/form-parts";
import { TextField } from "~/ui/fields";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { ANCHOR_CLASS } from "~/ui/plain-parts";
import { RouteDrawer } from "~/ui/route-dialogs";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Text, Title } from "~/ui/typography";
import { ValidatedForm } from "~/ui/validated-form";

export const links: LinksFunction = () => FORM_STYLES;

/**
 * Correct an issued invoice, over the invoices: the company, the contact, the billing address (its country stays:
 * a new country means a credit note), the VAT number and the PO number. The corrected document is a new revision
 * under the same number; every earlier one stays downloadable here.
 */
export const loader = ({ request, params }: LoaderFunctionArgs) => correctionPage(request, params.invoiceId ?? "");
export const action = ({ request, params }: ActionFunctionArgs) => correctionPost(request, params.invoiceId ?? "");

const FORM_ID = "correct-invoice";

export default function CorrectInvoice() {
  const { invoice, country, earlier, defaults, idempotencyKey } = useLoaderData<typeof loader>();
  const field = (name: string) => ({ id: fieldId(FORM_ID, name), name });
  return (
    <RouteDrawer title={`Correct invoice ${invoice.number}`} closeTo={afterCheckoutUrls.invoices}>
      <Stack gap="md">
        <Text size="sm">
          The corrected invoice keeps its number and amounts, and replaces the document of {formatDate(invoice.date)} as
          revision {invoice.revision + 1}. Changing the country, or anything that changes the tax, needs a credit note
          instead: ask GateKeeper support.
        </Text>
        <section aria-labelledby="invoice-documents">
          <Title order={3} id="invoice-documents">
            Documents of invoice {invoice.number}
          </Title>
          <Stack gap={2}>
            <a className={ANCHOR_CLASS} href={invoice.pdfUrl} download>
              {invoice.revision > 1 ? `Revision ${invoice.revision} (current)` : "Current document"}
            </a>
            {earlier.map((document) => (
              <a key={document.revision} className={ANCHOR_CLASS} href={document.pdfUrl} download>
                {`Revision ${document.revision} of ${formatDate(document.issuedAt)}`}
              </a>
            ))}
          </Stack>
        </section>
        <ValidatedForm
          id={FORM_ID}
          validator={invoiceCorrectionValidator}
          method="post"
          defaultValues={defaults}
          noValidate
        >
          <Stack gap="sm">
            <AuthenticityTokenInput name="csrf" />
            <input type="hidden" name="idempotency_key" value={idempotencyKey} />
            <input type="hidden" name="revision" value={defaults.revision} />
            <input type="hidden" name="country" value={country.code} />
            <FormFailureAlert />
            <TextField {...field("company")} label="Company" autoComplete="organization" required />
            <NameFields formId={FORM_ID} />
            <TextField {...field("line1")} label="Address line 1" autoComplete="address-line1" required />
            <TextField {...field("line2")} label="Address line 2" autoComplete="address-line2" />
            <Group grow align="flex-start">
              <TextField {...field("city")} label="City" autoComplete="address-level2" required />
              <TextField {...field("state")} label="State" autoComplete="address-level1" />
              <TextField {...field("zip")} label="Zip" autoComplete="postal-code" required />
            </Group>
            <Text size="sm">Country: {country.name || "none"}</Text>
            <TextField {...field("vat_number")} label="VAT number" autoComplete="off" />
            <TextField {...field("po_number")} label="PO number" autoComplete="off" />
            <SaveButton
              formId={FORM_ID}
              label="Correct invoice"
              validator={invoiceCorrectionValidator}
              unchangedHint="Change a field to correct the invoice."
            />
          </Stack>
        </ValidatedForm>
      </Stack>
    </RouteDrawer>
  );
}

export const ErrorBoundary = PageErrorBoundary;
