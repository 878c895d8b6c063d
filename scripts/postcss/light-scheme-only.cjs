// A PostCSS plugin: drops the dark colour scheme's rules from every stylesheet, Mantine's included. The
// portal is light only (root.tsx sets the scheme on <html>), so those rules would only add bytes to pages.
const DARK = /\[data-mantine-color-scheme=["']?dark["']?\]/;

module.exports = () => ({
  postcssPlugin: "light-scheme-only",
  Rule(rule) {
    if (!DARK.test(rule.selector)) return;
    const kept = rule.selectors.filter((selector) => !DARK.test(selector));
    if (kept.length === 0) rule.remove();
    else rule.selectors = kept;
  },
});
module.exports.postcss = true;
