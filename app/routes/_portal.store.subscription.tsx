import { Alert } from "@mantine-parts/components/Alert/Alert.mjs";
import { Button } from "@mantine-parts/components/Button/Button.mjs";
import { Group } from "@mantine-parts/components/Group/Group.mjs";
import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { Text } from "@mantine-parts/components/Text/Text.mjs";
import { json, redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/server/auth.server";
import { hasRecurringLicense } from "~/server/licenses.server";
import { PageErrorBoundary } from "~/ui/page";
import { RouteModal } from "~/ui/route-dialogs";
import { ALL_PARTS_STYLES } from "~/ui/stylesheets";

/**
 * The Subscription button's first stop (spec 000 §2 "Existing-license choice before purchase"): a user
 * with recurring licenses is asked whether they want a new one or to upgrade; anyone else goes straight
 * to the wizard.
 */

export const links: LinksFunction = () => [ALL_PARTS_STYLES];
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!hasRecurringLicense(user.id)) throw redirect("/store/subscribe/plan");
  return json({ upgrade: new URL(request.url).searchParams.get("choice") === "upgrade" });
}

export default function SubscriptionChoice() {
  const { upgrade } = useLoaderData<typeof loader>();
  return (
    <RouteModal title="You already have recurring licenses." closeTo="/store">
      {upgrade ? (
        <Stack>
          <Alert color="gatekeeper" variant="light">
            To add users to a license, or move it to a higher plan, use the &apos;Add Users&apos; button on the Licenses page.
          </Alert>
          <Group justify="flex-end">
            <Button component={Link} to="/store" variant="default">
              Cancel
            </Button>
            <Button component={Link} to="/licenses">
              Add users to an existing license
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text>Do you want to buy another recurring license, or upgrade one you have?</Text>
          <Group justify="flex-end">
            <Button component={Link} to="/store/subscription?choice=upgrade" variant="default">
              No, I&apos;ll upgrade existing recurring license
            </Button>
            <Button component={Link} to="/store/subscribe/plan">
              Yes, I want a new recurring license
            </Button>
          </Group>
        </Stack>
      )}
    </RouteModal>
  );
}

export const ErrorBoundary = PageErrorBoundary;
