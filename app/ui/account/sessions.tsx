import { List } from "~/ui/list";
import { Text, Title } from "~/ui/typography";
import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Button } from "~/ui/button";
import { Card, Stack } from "~/ui/layout";

export interface SessionView {
  id: string;
  current: boolean;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string;
}

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** Where the account is signed in, with "Sign out everywhere else". */
export function SessionsCard({ sessions }: { sessions: SessionView[] }) {
  const others = sessions.filter((session) => !session.current).length;
  return (
    <Card withBorder padding="lg" radius="md" aria-labelledby="sessions-title">
      <Title order={2} size="h4" id="sessions-title" mb="sm">
        Where you are signed in
      </Title>
      <Stack gap="sm">
        <List spacing="xs" aria-label="Signed-in browsers">
          {sessions.map((session) => (
            <List.Item key={session.id}>
              <Text size="sm" fw={session.current ? 700 : 400}>
                {session.userAgent || "Unknown browser"}
                {session.current ? " (this browser)" : ""}
              </Text>
              <Text size="xs" c="dimmed">
                Signed in {when(session.createdAt)} UTC · last seen {when(session.lastSeenAt)} UTC
              </Text>
            </List.Item>
          ))}
        </List>
        <Form method="post">
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="subaction" value="sign-out-others" />
          <Button type="submit" variant="default" disabled={others === 0}>
            Sign out everywhere else
          </Button>
        </Form>
      </Stack>
    </Card>
  );
}
