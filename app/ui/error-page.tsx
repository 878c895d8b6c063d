import { Anchor, Container, Stack, Text, Title } from "@mantine/core";
import { Link, isRouteErrorResponse } from "@remix-run/react";

const TITLES: Record<number, string> = {
  403: "You don't have access to this page",
  404: "Page not found",
  429: "Too many requests",
};

/** The page shown for a thrown response (403, 404, ...) or an unexpected error, inside or outside the shell. */
export function ErrorPage({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail =
    isRouteErrorResponse(error) && typeof error.data?.message === "string"
      ? error.data.message
      : status === 404
        ? "The page you asked for does not exist or has moved."
        : "An unexpected error happened. Please try again, or contact support if it keeps happening.";
  return (
    <Container size="sm" py="xl">
      <Stack gap="sm">
        <Text c="dimmed" fw={600}>
          Error {status}
        </Text>
        <Title order={1}>{TITLES[status] ?? "Something went wrong"}</Title>
        <Text>{detail}</Text>
        <Text>
          <Anchor component={Link} to="/home">
            Go to the portal home
          </Anchor>{" "}
          or{" "}
          <Anchor component={Link} to="/support">
            contact support
          </Anchor>
          .
        </Text>
      </Stack>
    </Container>
  );
}
