import {
  Button as MantineButton,
  Checkbox as MantineCheckbox,
  ComboboxChevron,
  Input,
  InputBase,
  Radio as MantineRadio,
  Table as MantineTable,
  TextInput as MantineTextInput,
} from "@mantine/core";
import { Link } from "~/ui/link";
import { Button, LinkButton } from "~/ui/button";
import { Checkbox, InputWrapper, NativeSelect, Radio, RadioGroup, TextInput } from "~/ui/inputs";
import { Table } from "~/ui/table";
import { expectSameMarkup, html, normalized } from "./mantine-markup";

/**
 * The plain table, buttons and inputs (app/ui/table.tsx, app/ui/button.tsx, app/ui/inputs.tsx) render what
 * Mantine's Table, Button, TextInput, NativeSelect, Input.Wrapper, Radio and Checkbox render for the same props, so Mantine's stylesheets draw them the same. Attributes and class names are
 * compared as sets (their order means nothing to CSS); styles and structure exactly.
 */

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

  test("draws a row from its cells as Mantine's row of cells", () => {
    expectSameMarkup(
      <Table striped>
        <Table.Tbody>
          <Table.Row cells={["a", <b key="b">b</b>]} />
        </Table.Tbody>
      </Table>,
      <MantineTable striped>
        <MantineTable.Tbody>
          <MantineTable.Tr>
            <MantineTable.Td>a</MantineTable.Td>
            <MantineTable.Td>
              <b>b</b>
            </MantineTable.Td>
          </MantineTable.Tr>
        </MantineTable.Tbody>
      </MantineTable>,
    );
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
    expect(
      normalized(
        html(
          <LinkButton to="/order?confirm=1" loading>
            Submit Order
          </LinkButton>,
        ),
      ),
    ).toBe(normalized(mantineLoading.replace(' disabled=""', ' aria-disabled="true"')));
  });
});

/**
 * The inputs, with the props the portal passes (TextField and SelectField in app/ui/fields.tsx pass the field's
 * id, name, default value and error). Ids are given: Mantine's generated ids count its own hooks.
 */
describe("the plain text input", () => {
  test.each([
    ["a required field", { label: "First name", required: true, autoComplete: "given-name", defaultValue: "Ada" }],
    [
      "a number with a description and an error",
      {
        label: "Users in the trial",
        description: "5 to 50",
        error: "Too many",
        type: "number",
        min: 5,
        max: 50,
        required: true,
      },
    ],
    ["a description without an error", { label: "Duration (days)", description: "7 to 30 days", type: "number" }],
    [
      "a quantity named by aria-label, in a table cell",
      { "aria-label": "Quantity of Readers", type: "number", min: 0 },
    ],
    [
      "a subdomain with its host on the right",
      { label: "Subdomain", required: true, rightSection: <span>.example.com</span>, rightSectionWidth: 160 },
    ],
    [
      "the coupon: a width, read-only, an error",
      { label: "I have a coupon:", w: 260, readOnly: true, defaultValue: "SAVE10", error: "Unknown coupon" },
    ],
    [
      "a card number: a style, a placeholder",
      {
        label: "Card number",
        placeholder: "4242 4242 4242 4242",
        inputMode: "numeric",
        required: true,
        style: { flexGrow: 2 },
      },
    ],
  ] as const)("renders Mantine's markup: %s", (_name, props) => {
    expectSameMarkup(
      <TextInput id="field" name="field" {...props} />,
      <MantineTextInput id="field" name="field" {...props} />,
    );
  });

  test("keeps its own aria-describedby beside the error's, where Mantine's drops it", () => {
    const mantine = html(
      <MantineTextInput
        id="new_password"
        name="new_password"
        label="New password"
        error="Too short"
        aria-describedby="rules"
      />,
    );
    expect(mantine).toContain('aria-describedby="new_password-error"');
    expect(
      normalized(
        html(
          <TextInput
            id="new_password"
            name="new_password"
            label="New password"
            error="Too short"
            aria-describedby="rules"
          />,
        ),
      ),
    ).toBe(
      normalized(
        mantine.replace('aria-describedby="new_password-error"', 'aria-describedby="new_password-error rules"'),
      ),
    );
  });

  test("labels its input with a generated id when none is given", () => {
    const markup = html(<TextInput name="card_expiry" label="Expiry" />);
    const id = /<input[^>]* id="([^"]+)"/.exec(markup)?.[1];
    expect(id).toBeTruthy();
    expect(markup).toContain(`for="${id}"`);
  });
});

describe("the plain select", () => {
  const options = (
    <>
      <option value="">-- Select your Country --</option>
      <option value="US">United States</option>
    </>
  );
  test.each([
    ["a required select", { label: "Country", required: true, autoComplete: "country", defaultValue: "US" }],
    ["a select with a width and an error", { label: "Country code", w: 170, error: "Pick one" }],
  ] as const)("renders Mantine's NativeSelect markup (InputBase and the chevron): %s", (_name, props) => {
    expectSameMarkup(
      <NativeSelect id="country" name="country" {...props}>
        {options}
      </NativeSelect>,
      <InputBase
        component="select"
        __staticSelector="NativeSelect"
        pointer
        rightSection={<ComboboxChevron error={"error" in props} />}
        rightSectionPointerEvents="none"
        id="country"
        name="country"
        {...props}
      >
        {options}
      </InputBase>,
    );
  });
});

describe("the plain input wrapper", () => {
  test.each([
    ["with an error", "Your card was declined."],
    ["without", undefined],
  ])("renders Mantine's Input.Wrapper markup %s", (_name, error) => {
    expectSameMarkup(
      <InputWrapper label="Card details" error={error} id="card-element-label">
        <div className="gk-card-element" />
      </InputWrapper>,
      <Input.Wrapper label="Card details" error={error} id="card-element-label">
        <div className="gk-card-element" />
      </Input.Wrapper>,
    );
  });
});

describe("the plain radios", () => {
  const ignore = () => undefined;

  test("a required group with a label, descriptions and a checked radio renders Mantine's markup", () => {
    expectSameMarkup(
      <RadioGroup id="tier" name="tier" label="Plan" value="pro" onChange={ignore} required>
        <Radio id="tier-basic" value="basic" label="Basic" description="For small sites" />
        <Radio id="tier-pro" value="pro" label="Pro" description="For many sites" />
      </RadioGroup>,
      <MantineRadio.Group id="tier" name="tier" label="Plan" value="pro" onChange={ignore} required>
        <MantineRadio id="tier-basic" value="basic" label="Basic" description="For small sites" />
        <MantineRadio id="tier-pro" value="pro" label="Pro" description="For many sites" />
      </MantineRadio.Group>,
    );
  });

  test("a group named by aria-label, with an error and radios named by aria-label, renders Mantine's markup", () => {
    expectSameMarkup(
      <RadioGroup
        id="licenseId"
        name="licenseId"
        aria-label="Hub deployment"
        value=""
        onChange={ignore}
        error="Choose a license"
      >
        <Radio id="license-1" value="1" aria-label="Acme (L-1)" />
      </RadioGroup>,
      <MantineRadio.Group
        id="licenseId"
        name="licenseId"
        aria-label="Hub deployment"
        value=""
        onChange={ignore}
        error="Choose a license"
      >
        <MantineRadio id="license-1" value="1" aria-label="Acme (L-1)" />
      </MantineRadio.Group>,
    );
  });

  test.each([
    ["a labelled radio in a form", { name: "license", value: "L-1", label: "L-1" }],
    [
      "a checked, disabled radio named by aria-label",
      {
        name: "source",
        value: "card_1",
        checked: true,
        disabled: true,
        onChange: ignore,
        "aria-label": "Pay with Visa",
      },
    ],
  ] as const)("alone, renders Mantine's markup: %s", (_name, props) => {
    expectSameMarkup(<Radio id="radio" {...props} />, <MantineRadio id="radio" {...props} />);
  });
});

describe("the plain checkbox", () => {
  test.each([
    [
      "labelled, unchecked",
      { name: "offsiteAccess", label: "Offsite access", checked: false, onChange: () => undefined },
    ],
    [
      "checked and disabled, with a description, an error and aria-describedby",
      {
        name: "addon",
        label: "Training",
        description: "Two hours",
        error: "Needs a Hub",
        checked: true,
        disabled: true,
        onChange: () => undefined,
        "aria-describedby": "addon-reason",
      },
    ],
    [
      "as remix-validated-form binds it (type and defaultChecked)",
      { name: "set_as_primary", label: "Set as primary", type: "checkbox", defaultChecked: true },
    ],
  ] as const)("renders Mantine's markup: %s", (_name, props) => {
    expectSameMarkup(<Checkbox id="choice" {...props} />, <MantineCheckbox id="choice" {...props} />);
  });
});
