import { Alert } from "@mantine-parts/components/Alert/Alert.mjs";
import { Anchor } from "@mantine-parts/components/Anchor/Anchor.mjs";
import { Card } from "@mantine-parts/components/Card/Card.mjs";
import { SimpleGrid } from "@mantine-parts/components/SimpleGrid/SimpleGrid.mjs";
import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { Text } from "@mantine-parts/components/Text/Text.mjs";
import { Title } from "@mantine-parts/components/Title/Title.mjs";
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { canStartTrial } from "~/domain/trials";
import { requireUser } from "~/server/auth.server";
import { countTrials } from "~/server/users.server";
import { documentTitle, PageErrorBoundary } from "~/ui/page";
import { DATA_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => [DATA_STYLES];

export const handle = { title: "Start GateKeeper Enterprise Trial" };
export const meta: MetaFunction = () => documentTitle("Start GateKeeper Enterprise Trial");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ eligible: canStartTrial(user, countTrials(user.id)) });
}

export default function Trial() {
  const { eligible } = useLoaderData<typeof loader>();
  if (!eligible) {
    return (
      <Alert color="orange" title="You have used up your trial." maw={700}>
        <Text size="sm">
          Each customer can run one free trial. To keep using GateKeeper Enterprise, buy a license on the{" "}
          <Anchor component={Link} to="/licenses">
            Licenses page
          </Anchor>
          .
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
        <Card withBorder padding="lg" radius="md" component="section">
          <Title order={2} size="h4">
            Cloud GateKeeper Hub (most popular)
          </Title>
          <Text size="sm" mt="xs">
            We host your Hub in the US or EU region. Nothing to install on your servers; you choose its address.
          </Text>
        </Card>
        <Card withBorder padding="lg" radius="md" component="section">
          <Title order={2} size="h4">
            On-Premise GateKeeper Hub
          </Title>
          <Text size="sm" mt="xs">
            You install the Hub, a server application, on a Windows Server on your own network.
          </Text>
        </Card>
      </SimpleGrid>
      <Text size="sm">
        Online trial setup opens here soon. Until then, our team sets up your trial within one business day:{" "}
        <Anchor component={Link} to="/support">
          contact support
        </Anchor>
        .
      </Text>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
