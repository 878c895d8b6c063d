import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postcss from "postcss";
import unusedMantineRules from "../../scripts/postcss/unused-mantine-rules.cjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

async function pruned(part: string) {
  const css = readFileSync(path.join(ROOT, "node_modules/@mantine/core/styles", `${part}.css`), "utf8");
  return (await postcss([unusedMantineRules()]).process(css, { from: undefined })).css;
}

test("drops the rules of parts the portal never renders, and keeps the rest of the component", async () => {
  const button = await pruned("Button");
  expect(button).not.toContain(".m_80d6d844"); // Button.Group
  expect(button).toContain(".m_77c9d27d"); // Button

  const input = await pruned("Input");
  expect(input).not.toMatch(/\[data-variant=['"]?filled/);
  expect(input).not.toContain("data-combined-clear-section");
  expect(input).toMatch(/\.m_6c018570\[data-variant=['"]?default/);
  // "Any variant but unstyled" is how the default variant's error border is written: it stays.
  expect(input).toMatch(/\[data-error\]:not\(\[data-variant=['"]?unstyled['"]?\]\)/);

  const loader = await pruned("Loader");
  expect(loader).not.toContain("m_5d2b3b9d"); // the bars' animation
  expect(loader).toContain("m_f8e89c4b"); // the oval's
});

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** What would render a part or option whose rules scripts/postcss/unused-mantine-rules.cjs drops. */
const RENDERS_A_DROPPED_PART: [string, RegExp][] = [
  ["Button.Group", /Button\.Group/],
  ["a bars or dots Loader", /<Loader\b[^>]*\btype=/],
  ['a Badge variant="dot"', /variant="dot"/],
  ["Table column borders, a sticky header or a vertical table", /withColumnBorders|stickyHeader|variant="vertical"/],
  [
    "a filled or unstyled input",
    /<(TextInput|NativeSelect|Input|PasswordInput|NumberInput|Select)\b[^>]*variant="(filled|unstyled)"/,
  ],
  ["a Textarea or a clearable Select", /Textarea|clearable/],
  ["an outline Checkbox or Radio", /<(Checkbox|Radio)\b[^>]*variant="outline"/],
  ["gradient, clamped or truncated text", /variant="gradient"|lineClamp|\btruncate\b/],
];

test("the app renders none of the parts whose rules are dropped", () => {
  const found = sourceFiles(path.join(ROOT, "app")).flatMap((file) => {
    const source = readFileSync(file, "utf8");
    return RENDERS_A_DROPPED_PART.filter(([, pattern]) => pattern.test(source)).map(
      ([part]) => `${path.relative(ROOT, file)} renders ${part}: take it out of unused-mantine-rules.cjs`,
    );
  });
  expect(found).toEqual([]);
});
