import { Title } from "~/ui/typography";
import type { ReactNode } from "react";
import { Card, Group } from "~/ui/layout";

/** A titled card of the billing area, named by its title for assistive technology; `action` sits top right. */
export function SectionCard({
  id,
  title,
  level = 2,
  action,
  children,
}: {
  id: string;
  title: string;
  /** 2 for the page's sections, 3 for the address panels inside one. */
  level?: 2 | 3;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding={level === 2 ? "lg" : "md"} radius="md" aria-labelledby={id}>
      <Group justify="space-between" align="flex-start" mb={level === 2 ? "sm" : "xs"}>
        <Title order={level} size={level === 2 ? "h4" : "h5"} id={id}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}
