import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_THEME, MantineProvider } from "@mantine/core";
import { renderToStaticMarkup } from "react-dom/server";
import { cssVariablesResolver, theme } from "~/ui/theme";

const STYLESHEET = fileURLToPath(new URL("../../app/styles/theme.css", import.meta.url));
const APP = fileURLToPath(new URL("../../app", import.meta.url));
const HEADER =
  "/* Generated from app/ui/theme.ts by tests/ui/theme-stylesheet.test.tsx (UPDATE_THEME_CSS=1 rewrites it). */\n";
/** Mantine's palettes that no page paints with; their variables would only add bytes to every page. */
const UNUSED_PALETTES = ["dark", "pink", "grape", "violet", "indigo", "cyan", "teal", "lime"];

/**
 * The portal's theme as CSS: what MantineProvider renders for it, Mantine's defaults included (so that
 * Mantine's default-css-variables.css is not needed beside it), without the dark scheme (the portal is
 * light only), without the unused palettes and without the classes of the hiddenFrom/visibleFrom props
 * (the portal does not use them).
 */
function themeStylesheet(): string {
  const markup = renderToStaticMarkup(
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      deduplicateCssVariables={false}
      withGlobalClasses={false}
    >
      {null}
    </MantineProvider>,
  );
  const css = [...markup.matchAll(/<style[^>]*>([^<]*)<\/style>/g)].map((match) => match[1]).join("\n");
  const unused = new RegExp(`^--mantine-color-(${UNUSED_PALETTES.join("|")})[-:]`);
  return css
    .replace(/:root\[data-mantine-color-scheme="dark"\][^{]*\{[^}]*\}/g, "")
    .replace(/\{([^{}]*)\}/g, (_, declarations: string) => {
      const kept = declarations.split(";").filter((declaration) => !unused.test(declaration.trim()));
      return `{${kept.join(";")}}`;
    });
}

/**
 * The root renders MantineProvider without its inline <style>s (colour variables and global classes), so
 * that they are not computed and sent with every page; app/styles/theme.css carries them as a static,
 * cached stylesheet. This keeps the file equal to what Mantine renders for the theme.
 */
test("app/styles/theme.css is what Mantine renders for the theme", () => {
  const css = themeStylesheet();
  expect(css).toContain("--mantine-primary-color-filled");
  expect(css).toContain("--mantine-color-red-9");
  expect(css).not.toContain("--mantine-color-pink-");
  const expected = `${HEADER}${css}\n`;
  if (process.env.UPDATE_THEME_CSS) writeFileSync(STYLESHEET, expected);
  expect(readFileSync(STYLESHEET, "utf8")).toBe(expected);
});

/** A palette left out of the stylesheet paints nothing: its parts would show without colour, silently. */
test("every palette the app names in a color prop is in app/styles/theme.css", () => {
  const sources = readdirSync(APP, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".tsx"));
  const palettes = new Set([...Object.keys(DEFAULT_THEME.colors), ...Object.keys(theme.colors ?? {})]);
  const named = new Set<string>();
  for (const file of sources) {
    for (const [attribute] of readFileSync(`${APP}/${file}`, "utf8").matchAll(/\bcolor=(\{[^}]*\}|"[^"]*")/g)) {
      for (const [, word] of attribute.matchAll(/"([a-z]+)(?:\.\d)?"/g)) if (palettes.has(word)) named.add(word);
    }
  }
  expect(named).toContain("yellow");
  const stylesheet = readFileSync(STYLESHEET, "utf8");
  for (const palette of named) expect(stylesheet, palette).toContain(`--mantine-color-${palette}-filled:`);
});
