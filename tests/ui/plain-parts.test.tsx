import { Button as MantineButton, MantineProvider, Table as MantineTable } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { Button, LinkButton } from "~/ui/button";
import { Table } from "~/ui/table";
import { theme } from "~/ui/theme";

/**
 * The plain table and buttons (app/ui/table.tsx, app/ui/button.tsx) render what Mantine's Table and Button
 * render for the same props, so Mantine's stylesheets draw them the same. Attributes and class names are
 * compared as sets (their order means nothing to CSS); styles and structure exactly.
 */

/** Server HTML inside the portal's provider (as `_portal` renders it) and a router (for links). */
function html(node: ReactNode) {
  return renderToStaticMarkup(
    <MemoryRouter>
      <MantineProvider theme={theme} withCssVariables={false} withGlobalClasses={false}>
        {node}
      </MantineProvider>
    </MemoryRouter>,
  );
}

/** Each start tag's attributes sorted by name, and its class names sorted. */
function normalized(markup: string) {
  return markup.replace(/<([a-z]+)((?:\s[^\s=>]+(?:="[^"]*")?)*)\s*(\/?)>/g, (_tag, name: string, attributes: string, selfClosing: string) => {
    const sorted = (attributes.match(/\s[^\s=>]+(?:="[^"]*")?/g) ?? [])
      .map((attribute) => attribute.trim().replace(/^class="([^"]*)"$/, (_class, names: string) => `class="${names.split(" ").sort().join(" ")}"`))
      .sort();
    return `<${[name, ...sorted].join(" ")}${selfClosing}>`;
  });
}

function expectSameMarkup(plain: ReactNode, mantine: ReactNode) {
  const expected = normalized(html(mantine));
  expect(expected).toContain("mantine-");
  expect(normalized(html(plain))).toBe(expected);
}

/** The same JSX with either implementation: the portal uses the plain one where it used Mantine's. */
type TableParts = typeof Table;
const MANTINE_TABLE = MantineTable as unknown as TableParts;

const orderSummary = (T: TableParts) => (
  <T withTableBorder striped className="gk-order-summary">
    <T.Caption>Your order</T.Caption>
    <T.Thead>
      <T.Tr>
        <T.Th scope="col">Item</T.Th>
        <T.Th scope="col" ta="right">
          Amount
        </T.Th>
      </T.Tr>
    </T.Thead>
    <T.Tbody>
      <T.Tr>
        <T.Td colSpan={3}>Plan</T.Td>
        <T.Td ta="right">$1.00</T.Td>
      </T.Tr>
    </T.Tbody>
    <T.Tfoot>
      <T.Tr>
        <T.Th scope="row" colSpan={3} fw={400}>
          Next billing
        </T.Th>
        <T.Td ta="right" data-testid="next-billing-amount">
          $2.00
        </T.Td>
      </T.Tr>
    </T.Tfoot>
  </T>
);

const summary = (T: TableParts) => (
  <T withTableBorder aria-label="Your choices">
    <T.Tbody>
      <T.Tr>
        <T.Th scope="row" w={220}>
          Plan
        </T.Th>
        <T.Td tt="capitalize">monthly</T.Td>
        <T.Td w={150}>x</T.Td>
      </T.Tr>
    </T.Tbody>
  </T>
);

const spacedAndHovered = (T: TableParts) => (
  <T striped withTableBorder highlightOnHover horizontalSpacing="xs" style={{ marginTop: "var(--mantine-spacing-xs)" }}>
    <T.Tbody>
      <T.Tr>
        <T.Td>a</T.Td>
      </T.Tr>
    </T.Tbody>
  </T>
);

const widelySpaced = (T: TableParts) => (
  <T verticalSpacing="sm" highlightOnHover>
    <T.Tbody />
  </T>
);

describe("the plain table", () => {
  test.each([
    ["an order summary (caption, header, footer, aligned cells)", orderSummary],
    ["a summary (row headers, widths)", summary],
    ["a striped table with hover and spacing", spacedAndHovered],
    ["a table with more vertical spacing", widelySpaced],
  ])("renders Mantine's markup for %s", (_name, sample) => {
    expectSameMarkup(sample(Table), sample(MANTINE_TABLE));
  });

  test("scrolls sideways in a plain box, as Mantine's native scroll container", () => {
    expectSameMarkup(
      <Table.ScrollContainer minWidth={700}>
        <Table />
      </Table.ScrollContainer>,
      <MantineTable.ScrollContainer minWidth={700} type="native">
        <MantineTable />
      </MantineTable.ScrollContainer>,
    );
  });
});

describe("the plain button", () => {
  test.each([
    ["the primary button", {}],
    ["filled", { variant: "filled" }],
    ["default", { variant: "default" }],
    ["light", { variant: "light" }],
    ["subtle", { variant: "subtle" }],
    ["extra small", { variant: "default", size: "xs" }],
    ["disabled", { disabled: true }],
    ["loading", { loading: true }],
  ] as const)("renders Mantine's markup: %s", (_name, props) => {
    expectSameMarkup(
      <Button type="submit" name="intent" value="next" className="gk-no-print" {...props}>
        Next
      </Button>,
      <MantineButton type="submit" name="intent" value="next" className="gk-no-print" {...props}>
        Next
      </MantineButton>,
    );
  });

  test("names its loader as Mantine's loaderProps do, and keeps a given style", () => {
    expectSameMarkup(
      <Button loading loadingLabel="Placing your order" style={{ marginTop: "auto" }}>
        Submit
      </Button>,
      <MantineButton loading loaderProps={{ "aria-label": "Placing your order" }} mt="auto">
        Submit
      </MantineButton>,
    );
  });

  test("as a link, the same; while loading aria-disabled where Mantine puts disabled on the <a>", () => {
    expectSameMarkup(
      <LinkButton to="/licenses" variant="default">
        Previous
      </LinkButton>,
      <MantineButton component={Link} to="/licenses" variant="default">
        Previous
      </MantineButton>,
    );
    const mantineLoading = html(
      <MantineButton component={Link} to="/order?confirm=1" loading>
        Submit Order
      </MantineButton>,
    );
    expect(mantineLoading).toContain(' disabled=""');
    expect(normalized(html(<LinkButton to="/order?confirm=1" loading>Submit Order</LinkButton>))).toBe(
      normalized(mantineLoading.replace(' disabled=""', ' aria-disabled="true"')),
    );
  });
});
