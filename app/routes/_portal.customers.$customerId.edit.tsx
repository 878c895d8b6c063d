import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { customerUrls } from "~/domain/customers";
import { COUNTRY_OPTIONS } from "~/server/account-billing/contact-options.server";
import { editCustomerPage, postCustomerEdit } from "~/server/resellers/customer-pages.server";
import { CustomerRecordForm, type RecordFormData } from "~/ui/customers/record-form";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Title } from "~/ui/typography";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Customers" };
export const meta = pageMeta("Change a customer's record");

export async function loader({ request, params }: LoaderFunctionArgs) {
  return { ...(await editCustomerPage(request, params.customerId ?? "")), countries: COUNTRY_OPTIONS };
}

export const action = ({ request, params }: ActionFunctionArgs) => postCustomerEdit(request, params.customerId ?? "");

export default function EditCustomer() {
  const { id, name, values, countries } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={800}>
      <Title order={2} size="h4">
        {name}
      </Title>
      <CustomerRecordForm
        values={values}
        actionData={useActionData<RecordFormData>()}
        countries={countries}
        submitLabel="Save"
        cancelTo={customerUrls.page(id)}
      />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
