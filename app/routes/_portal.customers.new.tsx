import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { customerUrls } from "~/domain/customers";
import { COUNTRY_OPTIONS } from "~/server/account-billing/contact-options.server";
import { newCustomerPage, postNewCustomer } from "~/server/resellers/customer-pages.server";
import { CustomerRecordForm, type RecordFormData } from "~/ui/customers/record-form";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Text } from "~/ui/typography";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Add a customer" };
export const meta = pageMeta("Add a customer");

export async function loader({ request }: LoaderFunctionArgs) {
  return { ...(await newCustomerPage(request)), countries: COUNTRY_OPTIONS };
}

export const action = ({ request }: ActionFunctionArgs) => postNewCustomer(request);

export default function NewCustomer() {
  const { values, countries } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={800}>
      <Text size="lg">An organization you buy licenses for. It needs no account of its own in the portal.</Text>
      <CustomerRecordForm
        values={values}
        actionData={useActionData<RecordFormData>()}
        countries={countries}
        submitLabel="Add customer"
        cancelTo={customerUrls.list}
      />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
