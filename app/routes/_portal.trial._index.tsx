import { Anchor, Text, Title } from "~/ui/typography";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { trialStepUrl } from "~/domain/trial-steps";
import { USED_UP_TRIAL } from "~/domain/trials";
import { mayDo, requireMember } from "~/server/accounts/access.server";
import { customerChoices } from "~/server/resellers/index.server";
import { trialCustomer, trialCustomerQuery, trialRight } from "~/server/trials/trial-wizard.server";
import { mayStartTrial } from "~/server/trials/trials.server";
import { Button, LinkButton } from "~/ui/button";
import { NativeSelect } from "~/ui/inputs";
import { Alert, Card, Group, SimpleGrid, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";

/**
 * The trial chooser, for members who may start a trial: which Hub to try, or why there is no trial left. A
 * distributor's member who may start trials for its end customers first chooses whom the trial is for (a GET
 * form: `?customer=`, which every step of the wizard then carries).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, trialRight(request));
  const customer = await trialCustomer(member, trialCustomerQuery(request));
  return json({
    eligible: await mayStartTrial(member.organization),
    customer,
    choices: mayDo(member, "customers.trials") ? await customerChoices(member.organization.id, customer) : null,
  });
}

export default function TrialChooser() {
  const { eligible, customer, choices } = useLoaderData<typeof loader>();
  if (!eligible) {
    return (
      <Alert color="orange" title={USED_UP_TRIAL} maw={700} role="alert">
        <Text size="sm">
          Each customer can run one free trial. To keep using GateKeeper Enterprise, buy a license on the{" "}
          <Anchor to="/licenses">Licenses page</Anchor>.
        </Text>
      </Alert>
    );
  }
  return (
    <Stack gap="lg" maw={1100}>
      <Text size="lg">
        Try GateKeeper Enterprise free for 15 to 30 days. Which type of GateKeeper Hub do you want to install?
      </Text>
      {choices ? (
        <Form method="get" aria-label="Whom the trial is for">
          <Group align="flex-end" gap="sm">
            <NativeSelect
              id="trial-customer"
              name="customer"
              label="The trial is for"
              defaultValue={customer?.id ?? ""}
              w={360}
            >
              <option value="">Your own organization</option>
              {choices.customers.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.name}
                </option>
              ))}
            </NativeSelect>
            <Button type="submit" variant="default">
              Choose
            </Button>
          </Group>
          {choices.more ? (
            <Text size="sm" mt="xs">
              Not listed? Start the trial from the customer&apos;s page under <Anchor to="/customers">Customers</Anchor>
              .
            </Text>
          ) : null}
        </Form>
      ) : null}
      {customer ? <Text fw={600}>The trial&apos;s license is {customer.name}&apos;s.</Text> : null}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder padding="lg" radius="md" aria-labelledby="trial-cloud">
          <Title order={2} size="h4" id="trial-cloud">
            Cloud Hub{" "}
            <Text span size="sm" fw={700} c="gatekeeper.8">
              (most popular)
            </Text>
          </Title>
          <Text size="sm" mt="xs" mb="md">
            We host your Hub in the US or EU region. Nothing to install on your servers; you choose its address.
          </Text>
          <LinkButton to={trialStepUrl("cloud", "welcome", customer?.id)} style={{ marginTop: "auto" }}>
            Cloud GateKeeper Hub
          </LinkButton>
        </Card>
        <Card withBorder padding="lg" radius="md" aria-labelledby="trial-onpremise">
          <Title order={2} size="h4" id="trial-onpremise">
            On-Premise Hub
          </Title>
          <Text size="sm" mt="xs" mb="md">
            You install the Hub, a server application, on a Windows Server on your own network.
          </Text>
          <LinkButton
            to={trialStepUrl("onpremise", "welcome", customer?.id)}
            variant="default"
            style={{ marginTop: "auto" }}
          >
            On-Premise GateKeeper Hub
          </LinkButton>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
