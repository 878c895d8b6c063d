import { Text } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { loadTrialStep, postTrialStep } from "~/server/trials/trial-wizard.server";
import { Button } from "~/ui/button";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { hubType } = await loadTrialStep(request, params, "welcome");
  return json({ hubType });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { member, wizard } = await postTrialStep(request, params, "welcome");
  return wizard.complete(member, "welcome", {});
}

export default function WelcomeStep() {
  const { hubType } = useLoaderData<typeof loader>();
  return (
    <Form method="post">
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Text>
          Welcome to your free GateKeeper Enterprise trial: the Ultimate plan for 15 to 30 days, for up to 100 users.
          You can order tokens and USB sensors with it; your card is charged only for that hardware, and never
          automatically when the trial ends.
        </Text>
        {hubType === "cloud" ? (
          <Text>We create your GateKeeper Cloud Hub and its administrator, and upload your trial license to it.</Text>
        ) : (
          <Alert color="yellow" title="Before you start">
            The On-Premise Hub is a server application that you install on a Windows Server on your organization&apos;s
            network.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" name="intent" value="next">
            Start
          </Button>
        </Group>
      </Stack>
    </Form>
  );
}

export const ErrorBoundary = PageErrorBoundary;
