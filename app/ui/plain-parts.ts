import anchorClasses from "@mantine-parts/components/Anchor/Anchor.module.css.mjs";
import groupClasses from "@mantine-parts/components/Group/Group.module.css.mjs";
import textClasses from "@mantine-parts/components/Text/Text.module.css.mjs";
import type { CSSProperties } from "react";

/**
 * Mantine's Text, Anchor and Group as the HTML they render (their own classes, data attributes and CSS
 * variables), for parts repeated per row or per page link: each Mantine component costs its render machinery
 * on the server, and a big account's list pages render a full set of them (decision 120). Give an
 * anchor `data-underline="hover"` as Anchor does. Also what Mantine resolves props to (sizes, spacing, theme
 * colours, style props), shared by the parts drawn as Mantine's (app/ui/typography.tsx, button.tsx, inputs.tsx).
 */
/** Mantine's `rem()` of a number of pixels, as its components write sizes into CSS variables and styles. */
export const rem = (px: number) => (px === 0 ? "0rem" : `calc(${px / 16}rem * var(--mantine-scale))`);

/** A theme spacing step, or a number of pixels. */
export type Spacing = "xs" | "sm" | "md" | "lg" | "xl" | number;

/** Mantine's `getSpacing()`: a step as the theme's variable, pixels as `rem()`. */
export const spacing = (value: Spacing) => (typeof value === "number" ? rem(value) : `var(--mantine-spacing-${value})`);

/** Class names as Mantine joins them: the ones given, in order, without the empty ones. */
export const joinClasses = (...names: (string | null | undefined)[]) => names.filter(Boolean).join(" ");

/**
 * The theme colours the portal writes as a `c` or `color` prop: a palette's text colour ("red"), one shade
 * ("red.9"), "dimmed", or a colour of its own (ACCESSIBLE_GREEN).
 */
export type ThemeColor =
  "dimmed" | "red" | "red.9" | "yellow.9" | "gatekeeper.7" | "gatekeeper.8" | "gray.6" | "gray.7" | `#${string}`;
/** The CSS colour Mantine resolves a theme colour to. */
export function themeColor(color: ThemeColor) {
  if (color.startsWith("#")) return color;
  if (color === "dimmed") return "var(--mantine-color-dimmed)";
  const [palette, shade] = color.split(".");
  return shade ? `var(--mantine-color-${palette}-${shade})` : `var(--mantine-color-${palette}-text)`;
}

/** The style props the portal passes to its parts (text, titles, badges, stacks, groups, alerts, boxes). */
export interface StyleProps {
  mt?: Spacing;
  mb?: Spacing;
  ml?: Spacing;
  c?: ThemeColor;
  fw?: 400 | 500 | 600 | 700;
  ta?: "right";
  w?: "100%";
  miw?: number;
  maw?: number;
  mah?: number;
}
/** The inline styles Mantine's Box writes for style props, in its order (after the component's variables). */
export function styleProps({ mt, mb, ml, c, fw, ta, w, miw, maw, mah }: StyleProps): CSSProperties {
  const style: CSSProperties = {};
  if (mt !== undefined) style.marginTop = spacing(mt);
  if (mb !== undefined) style.marginBottom = spacing(mb);
  if (ml !== undefined) style.marginLeft = spacing(ml);
  if (c !== undefined) style.color = themeColor(c);
  if (fw !== undefined) style.fontWeight = fw;
  if (ta !== undefined) style.textAlign = ta;
  if (w !== undefined) style.width = w;
  if (miw !== undefined) style.minWidth = rem(miw);
  if (maw !== undefined) style.maxWidth = rem(maw);
  if (mah !== undefined) style.maxHeight = rem(mah);
  return style;
}

export const TEXT_CLASS = `mantine-focus-auto ${textClasses.root} mantine-Text-root`;
export const ANCHOR_CLASS = `mantine-focus-auto ${anchorClasses.root} ${textClasses.root} mantine-Text-root mantine-Anchor-root`;
export const GROUP_CLASS = `${groupClasses.root} mantine-Group-root`;
/** A table row's links or buttons side by side on one line, drawn as a Group with gap sm by app.css. */
export const ROW_ACTIONS_CLASS = "gk-row-actions";

export type GroupJustify = "flex-start" | "flex-end" | "space-between";
export type GroupAlign = "center" | "flex-start" | "flex-end";

/** The CSS variables Group sets from its props (Mantine's defaults: gap md, centred, wrapping). */
export function groupStyle(
  gap: Spacing = "md",
  justify: GroupJustify = "flex-start",
  wrap: "wrap" | "nowrap" = "wrap",
  align: GroupAlign = "center",
) {
  return {
    "--group-gap": spacing(gap),
    "--group-align": align,
    "--group-justify": justify,
    "--group-wrap": wrap,
  } as CSSProperties;
}

/** The font sizes the portal gives text, links and lists. */
export type FontSize = "xs" | "sm" | "lg";
/** The CSS variables Text, Anchor (`text`) and List (`list`) set for a font size (with `data-size` on the element). */
export const fontSize = (part: "text" | "list", size: FontSize | undefined) =>
  (size
    ? { [`--${part}-fz`]: `var(--mantine-font-size-${size})`, [`--${part}-lh`]: `var(--mantine-line-height-${size})` }
    : {}) as CSSProperties;

/** The CSS variables Text sets for size="sm" (with `data-size="sm"` on the element). */
export const SMALL_TEXT_STYLE = fontSize("text", "sm");

/** The variables of a filled part (badge, theme icon) in a theme colour, as Mantine's variant resolver gives them. */
export const filledColors = (color: ThemeColor) => ({ bg: themeColor(color), color: "var(--mantine-color-white)" });
/**
 * The variables of a light part (alert, badge) in a palette's colour, as Mantine's variant resolver gives them:
 * the palette's light colours, or for a colour of its own its 10% tint with the colour itself as text.
 */
export function lightColors(color: string) {
  if (!color.startsWith("#"))
    return { bg: `var(--mantine-color-${color}-light)`, color: `var(--mantine-color-${color}-light-color)` };
  const [red, green, blue] = [1, 3, 5].map((at) => parseInt(color.slice(at, at + 2), 16));
  return { bg: `rgba(${red}, ${green}, ${blue}, 0.1)`, color };
}
/** The border Mantine's filled and light variants draw: transparent, one pixel. */
export const TRANSPARENT_BORDER = `${rem(1)} solid transparent`;
