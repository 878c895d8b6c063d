import { Anchor, Card, List, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Link, useRouteError, type UIMatch } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorPage } from "./error-page";

/**
 * A route names its page with `handle.title` (a string, or a function of its loader data);
 * the shell shows the deepest one in the header and the route's meta uses it for the tab.
 */
export interface PageHandle {
  title: string | ((data: unknown) => string);
}

export function pageTitle(match: Pick<UIMatch, "handle" | "data">): string | null {
  const handle = match.handle as PageHandle | undefined;
  if (!handle?.title) return null;
  return typeof handle.title === "function" ? handle.title(match.data) : handle.title;
}

/** The browser tab's title for a page: "<title> · GateKeeper Portal". */
export function documentTitle(title: string) {
  return [{ title: `${title} · GateKeeper Portal` }];
}

/** Errors of a page inside the shell: the shell stays, the page shows what went wrong. */
export function PageErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}

export interface PageLink {
  label: string;
  to: string;
  /** Links that leave the portal open as plain anchors. */
  external?: boolean;
}

export interface PageSection {
  title: string;
  body: string;
  links?: PageLink[];
}

/** A modest content page: a lead paragraph and cards, each with the links a customer needs next. */
export function InfoPage({ lead, sections, children }: { lead: ReactNode; sections: PageSection[]; children?: ReactNode }) {
  return (
    <Stack gap="lg" maw={1100}>
      <Text size="lg">{lead}</Text>
      {children}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {sections.map((section) => (
          <Card key={section.title} withBorder padding="lg" radius="md" component="section">
            <Stack gap="xs">
              <Title order={2} size="h4">
                {section.title}
              </Title>
              <Text size="sm">{section.body}</Text>
              {section.links?.length ? (
                <List size="sm" spacing={4}>
                  {section.links.map((link) => (
                    <List.Item key={link.to}>
                      {link.external ? (
                        <Anchor href={link.to} rel="noopener noreferrer">
                          {link.label}
                        </Anchor>
                      ) : (
                        <Anchor component={Link} to={link.to}>
                          {link.label}
                        </Anchor>
                      )}
                    </List.Item>
                  ))}
                </List>
              ) : null}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
