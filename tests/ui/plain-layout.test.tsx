import {
  Alert as MantineAlert,
  Box as MantineBox,
  Card as MantineCard,
  Group as MantineGroup,
  SimpleGrid as MantineSimpleGrid,
  Stack as MantineStack,
} from "@mantine/core";
import { readFileSync } from "node:fs";
import type { ComponentType } from "react";
import { Alert, Box, Card, Group, SimpleGrid, Stack } from "~/ui/layout";
import { ROW_ACTIONS_CLASS } from "~/ui/plain-parts";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { expectSameMarkup, html, normalized } from "./mantine-markup";

/**
 * The plain layout parts (app/ui/layout.tsx) render what Mantine's Stack, Group, SimpleGrid, Card, Alert and Box
 * render for each combination of props the portal passes, so Mantine's stylesheets draw them the same.
 * Attributes and class names are compared as sets (their order means nothing to CSS); styles and structure exactly.
 */

/** The same JSX with either implementation, typed as the plain one: the portal uses it where it used Mantine's. */
const as = <P,>(mantine: unknown) => mantine as ComponentType<P>;
type Props<C> = C extends ComponentType<infer P> ? P : never;

describe("Stack", () => {
  const MStack = as<Props<typeof Stack>>(MantineStack);
  const cases: Props<typeof Stack>[] = [
    {},
    { gap: "md" },
    { gap: "sm", maw: 360 },
    { gap: "lg", maw: 1200 },
    { gap: 4, align: "flex-end", mt: "lg" },
    { gap: 0 },
    { gap: "xs", align: "flex-start", mt: "xs" },
    { gap: "xs", mb: "md" },
    { gap: "md", className: "gk-printable" },
  ];
  test.each(cases)("%o", (props) => {
    expectSameMarkup(<Stack {...props}>content</Stack>, <MStack {...props}>content</MStack>);
  });
});

describe("Group", () => {
  const MGroup = as<Props<typeof Group>>(MantineGroup);
  const cases: Props<typeof Group>[] = [
    { justify: "flex-end" },
    { justify: "space-between", mt: "md" },
    { justify: "space-between", w: "100%" },
    { justify: "space-between", align: "flex-start", wrap: "nowrap" },
    { justify: "space-between", align: "flex-start", style: { flexDirection: "row-reverse" } },
    { justify: "space-between", align: "flex-start", mb: "sm" },
    { grow: true, align: "flex-start" },
    { gap: "xl" },
    { gap: 0 },
    { align: "flex-end", gap: "xs" },
    { gap: "xs", align: "flex-start", wrap: "nowrap" },
    { gap: "sm", "data-testid": "recurring-line" },
    { component: "nav", "aria-label": "Filter by state", gap: "sm" },
  ];
  test.each(cases)("%o", (props) => {
    // Mantine leaves out false and empty children, and a growing row shares its width among the rest.
    const children = [<span key="a">a</span>, false, "", <span key="b">b</span>, null];
    expectSameMarkup(<Group {...props}>{children}</Group>, <MGroup {...props}>{children}</MGroup>);
  });
});

describe("a table row's actions (ROW_ACTIONS_CLASS)", () => {
  test("are drawn by app.css as Mantine's Group draws gap sm on one line", () => {
    const mantine = html(
      <MantineGroup gap="sm" wrap="nowrap">
        a
      </MantineGroup>,
    );
    const variables = new Map(
      (/style="([^"]*)"/.exec(mantine)?.[1] ?? "").split(";").map((declaration) => {
        const [name, value] = declaration.split(/:(.*)/);
        return [name.trim(), value.trim()] as const;
      }),
    );
    const group = readFileSync(new URL("../../node_modules/@mantine/core/styles/Group.css", import.meta.url), "utf8");
    const app = readFileSync(new URL("../../app/styles/app.css", import.meta.url), "utf8");
    const declarations = (rule: string) =>
      rule
        .split(";")
        .map((declaration) => declaration.replace(/\s+/g, ""))
        .filter(Boolean)
        .sort();
    // Group's rule with its variables as the Group sets them (or their defaults).
    const groupRule = (/\.m_4081bf90 \{([^}]*)\}/.exec(group)?.[1] ?? "").replace(
      /var\((--group-[a-z]+), ([^()]*(?:\([^()]*\))?)\)/g,
      (_whole, name: string, fallback: string) => variables.get(name) ?? fallback,
    );
    const own = /\.gk-row-actions \{([^}]*)\}/.exec(app)?.[1] ?? "";
    expect(declarations(own)).toEqual(declarations(groupRule));
    expect(html(<div className={ROW_ACTIONS_CLASS}>a</div>)).toBe('<div class="gk-row-actions">a</div>');
  });
});

describe("SimpleGrid", () => {
  const MSimpleGrid = as<Props<typeof SimpleGrid>>(MantineSimpleGrid);
  // Compared without whitespace: the stylesheet is formatted, Mantine's inline rules are not.
  const squeezed = (css: string) => css.replace(/\s+/g, "");
  const forms = squeezed(readFileSync(new URL("../../app/styles/forms.css", import.meta.url), "utf8"));
  const cases: Props<typeof SimpleGrid>[] = [
    { cols: { base: 1, sm: 2 } },
    { cols: { base: 1, sm: 2 }, spacing: "md" },
    { cols: { base: 1, sm: 3 } },
    { cols: { base: 1, md: 2 }, spacing: "lg" },
  ];
  test.each(cases)("%o", (props) => {
    // Mantine writes the columns into a <style> for a generated class; the forms layer holds the same rules for a
    // class per combination.
    const mantine = html(<MSimpleGrid {...props}>content</MSimpleGrid>);
    const [, rules, generated] =
      /^<style data-mantine-styles="inline">(.*)<\/style>.*class="[^"]*(__m__-\w+)/.exec(mantine) ?? [];
    const plain = html(<SimpleGrid {...props}>content</SimpleGrid>);
    const [, own] = /(gk-grid-[\w-]+)/.exec(plain) ?? [];
    expect(forms).toContain(squeezed(rules.replaceAll(generated, own)));
    expect(normalized(plain)).toBe(normalized(mantine.replace(/^<style.*<\/style>/, "").replace(generated, own)));
  });
});

describe("Card", () => {
  const MCard = as<Props<typeof Card> & { component: "section" }>(MantineCard);
  const cases: Props<typeof Card>[] = [
    { withBorder: true, padding: "lg", radius: "md", "aria-labelledby": "profile-title" },
    { withBorder: true, padding: "md", radius: "md", "aria-labelledby": "billing-title" },
    { withBorder: true, padding: "md", "aria-label": "Payment method" },
  ];
  test.each(cases)("%o", (props) => {
    expectSameMarkup(
      <Card {...props}>content</Card>,
      <MCard component="section" {...props}>
        content
      </MCard>,
    );
  });
});

describe("Alert", () => {
  const MAlert = as<Props<typeof Alert>>(MantineAlert);
  const cases: Props<typeof Alert>[] = [
    { color: "red", role: "alert" },
    { color: "red", role: "alert", title: "Failed to generate your order." },
    { color: "red", variant: "light", role: "alert" },
    { color: "gatekeeper", variant: "light" },
    { color: "yellow", role: "status", "data-testid": "step-notice" },
    { color: "yellow", title: "Before you start" },
    { color: ACCESSIBLE_GREEN, role: "status", title: "Your GateKeeper Cloud Hub is ready!" },
    { color: "orange", title: "Trial used up", maw: 700, role: "alert" },
    { color: "blue" },
  ];
  test.each(cases)("%o", (props) => {
    expectSameMarkup(<Alert {...props}>message</Alert>, <MAlert {...props}>message</MAlert>);
  });
});

describe("Box", () => {
  test("with a maximum height, scrolling", () => {
    // Mantine's Box writes an empty class attribute when given none.
    const mantine = html(
      <MantineBox mah={500} style={{ overflowY: "auto" }}>
        content
      </MantineBox>,
    );
    const plain = html(
      <Box mah={500} style={{ overflowY: "auto" }}>
        content
      </Box>,
    );
    expect(normalized(plain)).toBe(normalized(mantine.replace(' class=""', "")));
  });
});
