import type { CSSVariablesResolver } from "@mantine/core";
import { createTheme } from "@mantine-parts/core/MantineProvider/create-theme/create-theme.mjs";

/** GateKeeper's look: a deep blue brand with enough contrast for WCAG AA on white. */
// Pure: pages that import only ACCESSIBLE_GREEN do not carry the theme object (the app draws Mantine's parts
// itself, so only the tests and the static theme stylesheet read the theme).
export const theme = /* @__PURE__ */ createTheme({
  primaryColor: "gatekeeper",
  primaryShade: 7,
  colors: {
    gatekeeper: [
      "#e7f1ff",
      "#cfe0fb",
      "#9ebff3",
      "#6a9cec",
      "#417ee6",
      "#276be3",
      "#1861e2",
      "#0b51c9",
      "#0047b4",
      "#003d9f",
    ],
    // Notices and pending badges: Mantine's yellow, with shades 7-9 (text on the light tint, and the filled
    // colour behind white) darkened to amber so they reach WCAG AA's 4.5:1 (shade 7 is 4.7:1 on its tint).
    yellow: [
      "#fff9db",
      "#fff3bf",
      "#ffec99",
      "#ffe066",
      "#ffd43b",
      "#fcc419",
      "#fab005",
      "#995c00",
      "#8a5300",
      "#7d4a00",
    ],
  },
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  defaultRadius: "sm",
});

/** Mantine's darkest green is 4.4:1 against white, short of WCAG AA's 4.5:1; this one is 6.1:1 (text and fills). */
export const ACCESSIBLE_GREEN = "#237032";

/**
 * Mantine paints a field's error (its message and border) in red shade 6, 3.3:1 against white: short of WCAG AA's
 * 4.5:1 for the message. Shade 9 is 5.6:1, the red the portal's own error text uses.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-error": "var(--mantine-color-red-9)" },
  dark: {},
});
