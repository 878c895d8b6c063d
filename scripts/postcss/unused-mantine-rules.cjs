// A PostCSS plugin: drops the rules of Mantine's stylesheets for parts and options the portal never renders, so
// that pages do not download them (decision 102). Each entry names a part as Mantine's CSS module does
// (`Button/Button` → node_modules/@mantine/core/esm/components/Button/Button.module.css.mjs) with
// - `classes`: its elements that are never rendered (e.g. Button.Group's), every selector naming one is dropped;
// - `options`: attribute selectors of options never used (e.g. an Input variant), dropped where they qualify one
//   of the part's classes;
// - `keyframes`: animations only those elements use.
// A name that Mantine does not have fails the build, so that an upgrade that renames one is noticed. Using a
// listed part or option later means taking it out of this list (tests/ui/unused-mantine-rules.test.ts checks
// the app's code for the props that would render them).
const { readFileSync } = require("node:fs");
const path = require("node:path");

const UNUSED = {
  // Button.Group.
  "Button/Button": { classes: ["group", "groupSection"] },
  // Loader type="bars" and type="dots": buttons show the default oval while they are busy.
  "Loader/Loader": {
    classes: ["barsLoader", "bar", "dotsLoader", "dot"],
    keyframes: ["bars-loader-animation", "loader-dots-animation"],
  },
  // Badge variant="dot".
  "Badge/Badge": { classes: ["root--dot"], options: ["[data-variant=dot]"] },
  // Table withColumnBorders, stickyHeader and variant="vertical".
  "Table/Table": { options: ["[data-with-column-border]", "[data-sticky]", "[data-variant=vertical]"] },
  // Inputs variant="filled" and "unstyled", Textarea (multiline), monospace text and the clear button of a
  // clearable Select.
  "Input/Input": {
    options: [
      "[data-variant=filled]",
      "[data-variant=unstyled]",
      "[data-multiline]",
      "[data-monospace]",
      "[data-combined-clear-section]",
    ],
  },
  // Checkbox and Radio variant="outline".
  "Checkbox/Checkbox": { classes: ["input--outline"] },
  "Radio/Radio": { classes: ["radio--outline"] },
  // Text and Anchor variant="gradient", Text lineClamp and truncate.
  "Text/Text": { options: ["[data-variant=gradient]", "[data-line-clamp]", "[data-truncate]"] },
  "Anchor/Anchor": { options: ["[data-variant=gradient]"] },
};

// Mantine's package main is cjs/index.cjs; its ESM parts sit beside (the files tsconfig's @mantine-parts/* maps to).
const COMPONENTS = path.join(path.dirname(require.resolve("@mantine/core")), "..", "esm", "components");

/** The class names Mantine gives a part's elements, read from its CSS module's ESM file. */
function classNames(part) {
  const source = readFileSync(path.join(COMPONENTS, `${part}.module.css.mjs`), "utf8");
  const found = /var classes = (\{[^}]*\});/.exec(source);
  if (!found) throw new Error(`unused-mantine-rules: no class map in ${part}.module.css.mjs`);
  return JSON.parse(found[1]);
}

function lookUp(part, names, map) {
  return names.map((name) => {
    if (!map[name]) throw new Error(`unused-mantine-rules: Mantine's ${part} has no element '${name}'`);
    return map[name];
  });
}

/** Selector tests: a selector is dropped when one of them matches (quotes are ignored, as minifiers differ). */
function unusedSelectorTests() {
  const tests = [];
  const keyframes = [];
  for (const [part, { classes = [], options = [], keyframes: animations = [] }] of Object.entries(UNUSED)) {
    const map = classNames(part);
    for (const name of lookUp(part, classes, map)) {
      const element = new RegExp(`\\.${name}(?![\\w-])`);
      tests.push((selector) => element.test(selector));
    }
    const own = Object.values(map).map((name) => new RegExp(`\\.${name}(?![\\w-])`));
    for (const option of options) {
      // The option anywhere in a selector that names one of the part's elements, but not under :not(), which
      // is how the other options' rules say "any but this one".
      tests.push((selector) => {
        const positive = selector.replace(/:not\([^()]*\)/g, "");
        return positive.includes(option) && own.some((name) => name.test(positive));
      });
    }
    keyframes.push(...lookUp(part, animations, map));
  }
  return { tests, keyframes };
}

module.exports = () => {
  const { tests, keyframes } = unusedSelectorTests();
  const unused = (selector) => tests.some((test) => test(selector.replace(/["']/g, "")));
  return {
    postcssPlugin: "unused-mantine-rules",
    Rule(rule) {
      if (rule.parent?.type === "atrule" && /keyframes$/.test(rule.parent.name)) return;
      const kept = rule.selectors.filter((selector) => !unused(selector));
      if (kept.length === 0) rule.remove();
      else if (kept.length < rule.selectors.length) rule.selectors = kept;
    },
    AtRule(atRule) {
      if (/keyframes$/.test(atRule.name) && keyframes.includes(atRule.params.trim())) atRule.remove();
    },
  };
};
module.exports.postcss = true;
