import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Button } from "~/ui/button";
import { NativeSelect } from "~/ui/inputs";
import { Card, Group, Stack } from "~/ui/layout";
import { Text } from "~/ui/typography";

export interface MoveCustomerData {
  fieldErrors?: { reseller?: string };
  values?: { reseller?: string };
}

/**
 * "Move to another reseller": an end customer's administration page, and the move's own page where a refused move
 * shows what to fix. It posts to the move's route, with or without JavaScript.
 */
export function MoveCustomerForm({
  customerId,
  resellerName,
  choices,
  actionData,
}: {
  customerId: string;
  resellerName: string;
  choices: { id: string; name: string }[];
  actionData?: MoveCustomerData;
}) {
  return (
    <Card withBorder padding="md" aria-label="Move to another reseller">
      <Form method="post" action={`/admin/customers/${customerId}/move`} noValidate>
        <AuthenticityTokenInput name="csrf" />
        <Stack gap="sm">
          <Text fw={600}>Move to another reseller</Text>
          <Text size="sm">
            The licenses {resellerName} bought for this customer stay {resellerName}&apos;s to pay for and renew until
            they end; the new reseller sees them on the customer&apos;s page and buys the customer&apos;s new ones.
          </Text>
          <NativeSelect
            id="move-reseller"
            name="reseller"
            label="New reseller"
            required
            defaultValue={actionData?.values?.reseller ?? ""}
            error={actionData?.fieldErrors?.reseller}
            w={360}
          >
            <option value="">Choose a distributor</option>
            {choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.name}
              </option>
            ))}
          </NativeSelect>
          <Group>
            <Button type="submit">Move</Button>
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}
