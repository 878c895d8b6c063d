import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { moveCustomerPage, postCustomerMove } from "~/server/resellers/staff.server";
import { MoveCustomerForm, type MoveCustomerData } from "~/ui/admin/move-customer-form";
import { Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Anchor, Text, Title } from "~/ui/typography";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Customer" };
export const meta = pageMeta("Move an end customer");

export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await moveCustomerPage(request, params.organizationId ?? ""));
}

/** The move posted from the customer's administration page or this one: done, or this form with what to fix. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  postCustomerMove(request, params.organizationId ?? "");

/** An end customer's move to another distributor, on its own page: where a refused move shows what to fix. */
export default function MoveCustomer() {
  const { customer, reseller, choices } = useLoaderData<typeof loader>();
  const actionData = useActionData<MoveCustomerData>();
  return (
    <Stack gap="lg" maw={800}>
      <Anchor to={`/admin/customers/${customer.id}`}>Back to {customer.name}</Anchor>
      <Title order={2}>{customer.name}</Title>
      <Text>End customer of {reseller.name}</Text>
      <MoveCustomerForm
        customerId={customer.id}
        resellerName={reseller.name}
        choices={choices}
        actionData={actionData}
      />
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
