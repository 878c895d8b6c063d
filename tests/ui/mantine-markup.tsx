import { MantineProvider } from "@mantine/core";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { theme } from "~/ui/theme";

/**
 * Comparing a plain part's server HTML with Mantine's for the same props: attributes and class names as sets
 * (their order means nothing to CSS), styles and structure exactly.
 */

/** Server HTML inside the portal's provider (as `_portal` renders it) and a router (for links). */
export function html(node: ReactNode) {
  return renderToStaticMarkup(
    <MemoryRouter>
      <MantineProvider theme={theme} withCssVariables={false} withGlobalClasses={false}>
        {node}
      </MantineProvider>
    </MemoryRouter>,
  );
}

/** Each start tag's attributes sorted by name, and its class names sorted once each (Mantine repeats some). */
export function normalized(markup: string) {
  return markup.replace(
    /<([a-z0-9]+)((?:\s[^\s=>]+(?:="[^"]*")?)*)\s*(\/?)>/g,
    (_tag, name: string, attributes: string, selfClosing: string) => {
      const sorted = (attributes.match(/\s[^\s=>]+(?:="[^"]*")?/g) ?? [])
        .map((attribute) =>
          attribute
            .trim()
            .replace(
              /^class="([^"]*)"$/,
              (_class, names: string) => `class="${[...new Set(names.split(" "))].sort().join(" ")}"`,
            ),
        )
        .sort();
      return `<${[name, ...sorted].join(" ")}${selfClosing}>`;
    },
  );
}

/** `plain` renders what `mantine` renders, Mantine's markup first passed through `adjust` (a known difference). */
export function expectSameMarkup(
  plain: ReactNode,
  mantine: ReactNode,
  adjust: (markup: string) => string = (markup) => markup,
) {
  const expected = normalized(adjust(html(mantine)));
  expect(expected).toContain("mantine-");
  expect(normalized(html(plain))).toBe(expected);
}
