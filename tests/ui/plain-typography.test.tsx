import {
  Anchor as MantineAnchor,
  Badge as MantineBadge,
  List as MantineList,
  Text as MantineText,
  ThemeIcon as MantineThemeIcon,
  Title as MantineTitle,
} from "@mantine/core";
import { Link } from "~/ui/link";
import { ACCESSIBLE_GREEN } from "~/ui/theme";
import { Badge } from "~/ui/badge";
import { List, ThemeIcon } from "~/ui/list";
import { Anchor, Text, Title } from "~/ui/typography";
import { expectSameMarkup } from "./mantine-markup";

/**
 * The plain typography parts (app/ui/typography.tsx) render what Mantine's Text, Title, Anchor, List, Badge and
 * ThemeIcon render for each combination of props the portal passes, so Mantine's stylesheets draw them the same.
 */

describe("the plain text", () => {
  test.each([
    ["no props", {}, {}],
    ["a size", { size: "sm" }, { size: "sm" }],
    ["a large size", { size: "lg" }, { size: "lg" }],
    ["dimmed, extra small, indented", { c: "dimmed", size: "xs", ml: 32 }, { c: "dimmed", size: "xs", ml: 32 }],
    ["a palette's text colour", { c: "red", size: "sm" }, { c: "red", size: "sm" }],
    ["a shade and a weight", { c: "red.9", fw: 600, size: "sm" }, { c: "red.9", fw: 600, size: "sm" }],
    ["a colour of its own", { c: ACCESSIBLE_GREEN, fw: 600, size: "sm" }, { c: ACCESSIBLE_GREEN, fw: 600, size: "sm" }],
    ["theme and pixel margins", { mt: "xs", mb: "md", size: "sm" }, { mt: "xs", mb: "md", size: "sm" }],
    ["a margin in pixels and a weight", { fw: 600, mb: 4 }, { fw: 600, mb: 4 }],
    [
      "right-aligned with a minimum width",
      { miw: 110, size: "sm", ta: "right" },
      { miw: 110, size: "sm", ta: "right" },
    ],
    [
      "a class and its own attributes",
      { className: "gk-no-print", size: "sm", id: "reason", role: "status" },
      { className: "gk-no-print", size: "sm", id: "reason", role: "status" },
    ],
    ["inline", { span: true, size: "xs" }, { span: true, size: "xs" }],
    [
      "inline with a colour",
      { span: true, c: "gatekeeper.8", fw: 700, size: "sm" },
      { component: "span", c: "gatekeeper.8", fw: 700, size: "sm" },
    ],
  ] as const)("renders Mantine's markup for %s", (_name, plain, mantine) => {
    expectSameMarkup(<Text {...plain}>Text</Text>, <MantineText {...mantine}>Text</MantineText>);
  });
});

describe("the plain title", () => {
  test.each([
    ["a section heading", { order: 2 }],
    ["a section heading drawn smaller, with a margin", { order: 2, size: "h4", mb: "sm" }],
    ["a card heading", { order: 3 }],
    ["a card heading drawn smaller", { order: 3, size: "h5" }],
  ] as const)("renders Mantine's markup for %s", (_name, props) => {
    expectSameMarkup(<Title {...props}>Heading</Title>, <MantineTitle {...props}>Heading</MantineTitle>);
  });
});

describe("the plain anchor", () => {
  test.each([
    ["a link", {}],
    ["a small link", { size: "sm", preventScrollReset: true }],
  ] as const)("renders Mantine's markup for %s", (_name, props) => {
    expectSameMarkup(
      <Anchor to="/licenses" {...props}>
        Licenses
      </Anchor>,
      <MantineAnchor component={Link} to="/licenses" {...props}>
        Licenses
      </MantineAnchor>,
    );
  });
});

describe("the plain badge", () => {
  test.each([
    ["light in the primary colour", { variant: "light" }],
    ["light and small, with a margin", { variant: "light", size: "sm", ml: "xs" }],
    ["light in a palette", { variant: "light", color: "yellow" }],
    ["light in a shade of Mantine's red", { variant: "light", color: "red.9" }],
    ["light in a shade of the theme's yellow", { variant: "light", color: "yellow.9" }],
    ["filled in a shade", { variant: "filled", color: "red.9" }],
    ["filled in a colour of its own", { variant: "filled", color: ACCESSIBLE_GREEN }],
  ] as const)("renders Mantine's markup for %s", (_name, props) => {
    expectSameMarkup(<Badge {...props}>Active</Badge>, <MantineBadge {...props}>Active</MantineBadge>);
  });
});

/** Mantine's ThemeIcon leaks its `radius` and `color` props onto its `<div>` as attributes; the plain one does not. */
const withoutLeakedProps = (markup: string) => markup.replace(/ (radius|color)="[^"]*"/g, "");

describe("the plain theme icon", () => {
  test.each([["gray.6"], ["gray.7"], ["gatekeeper.7"], ["red.9"], [ACCESSIBLE_GREEN]] as const)(
    "renders Mantine's markup in %s",
    (color) => {
      expectSameMarkup(
        <ThemeIcon size={22} color={color} aria-hidden="true">
          ✓
        </ThemeIcon>,
        <MantineThemeIcon size={22} radius="xl" color={color} aria-hidden="true">
          ✓
        </MantineThemeIcon>,
        withoutLeakedProps,
      );
    },
  );
});

describe("the plain list", () => {
  test.each([
    ["small", { size: "sm" }],
    ["spaced", { spacing: "xs" }],
  ] as const)("renders Mantine's markup for a bulleted list, %s", (_name, props) => {
    const items = (L: typeof List | typeof MantineList) => (
      <>
        <L.Item>One</L.Item>
        <L.Item>Two</L.Item>
      </>
    );
    expectSameMarkup(<List {...props}>{items(List)}</List>, <MantineList {...props}>{items(MantineList)}</MantineList>);
  });

  test("renders Mantine's markup for centred items with icons and colours (the password checklist)", () => {
    expectSameMarkup(
      <List center size="sm" spacing={2} aria-label="Requirements">
        <List.Item
          c="red.9"
          icon={
            <ThemeIcon size={18} color="red.9" aria-hidden="true">
              ✗
            </ThemeIcon>
          }
        >
          At least 12 characters
        </List.Item>
        <List.Item
          c={ACCESSIBLE_GREEN}
          icon={
            <ThemeIcon size={18} color={ACCESSIBLE_GREEN} aria-hidden="true">
              ✓
            </ThemeIcon>
          }
        >
          A digit
        </List.Item>
        <List.Item
          icon={
            <ThemeIcon size={18} color="gray.7" aria-hidden="true">
              •
            </ThemeIcon>
          }
        >
          A letter
        </List.Item>
      </List>,
      <MantineList center size="sm" spacing={2} aria-label="Requirements">
        <MantineList.Item
          c="red.9"
          icon={
            <MantineThemeIcon size={18} radius="xl" color="red.9" aria-hidden="true">
              ✗
            </MantineThemeIcon>
          }
        >
          At least 12 characters
        </MantineList.Item>
        <MantineList.Item
          c={ACCESSIBLE_GREEN}
          icon={
            <MantineThemeIcon size={18} radius="xl" color={ACCESSIBLE_GREEN} aria-hidden="true">
              ✓
            </MantineThemeIcon>
          }
        >
          A digit
        </MantineList.Item>
        <MantineList.Item
          icon={
            <MantineThemeIcon size={18} radius="xl" color="gray.7" aria-hidden="true">
              •
            </MantineThemeIcon>
          }
        >
          A letter
        </MantineList.Item>
      </MantineList>,
      withoutLeakedProps,
    );
  });

  test("renders Mantine's markup for a job's stages (data attributes on items)", () => {
    expectSameMarkup(
      <List spacing="sm" center>
        <List.Item
          data-state="running"
          icon={
            <ThemeIcon size={22} color="gatekeeper.7" aria-hidden="true">
              …
            </ThemeIcon>
          }
        >
          Creating the Hub
        </List.Item>
      </List>,
      <MantineList spacing="sm" center>
        <MantineList.Item
          data-state="running"
          icon={
            <MantineThemeIcon size={22} radius="xl" color="gatekeeper.7" aria-hidden="true">
              …
            </MantineThemeIcon>
          }
        >
          Creating the Hub
        </MantineList.Item>
      </MantineList>,
      withoutLeakedProps,
    );
  });
});
