import { Anchor, Text, Title } from "~/ui/typography";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { trialStepUrl } from "~/domain/trial-steps";
import { USED_UP_TRIAL } from "~/domain/trials";
import { requireMember } from "~/server/accounts/access.server";
import { mayStartTrial } from "~/server/trials/trials.server";
import { LinkButton } from "~/ui/button";
import { Alert, Card, SimpleGrid, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";

/** The trial chooser, for members who may start a trial: which Hub to try, or why there is no trial left. */
export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "trials.start");
  return json({ eligible: await mayStartTrial(member.organization) });
}

export default function TrialChooser() {
  const { eligible } = useLoaderData<typeof loader>();
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
          <LinkButton to={trialStepUrl("cloud", "welcome")} style={{ marginTop: "auto" }}>
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
          <LinkButton to={trialStepUrl("onpremise", "welcome")} variant="default" style={{ marginTop: "auto" }}>
            On-Premise GateKeeper Hub
          </LinkButton>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
