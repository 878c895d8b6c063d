import anchorClasses from "@mantine-parts/components/Anchor/Anchor.module.css.mjs";
import groupClasses from "@mantine-parts/components/Group/Group.module.css.mjs";
import textClasses from "@mantine-parts/components/Text/Text.module.css.mjs";
import type { CSSProperties } from "react";

/**
 * Mantine's Text, Anchor and Group as the HTML they render (their own classes, data attributes and CSS
 * variables), for parts repeated per row or per page link: each Mantine component costs its render machinery
 * on the server, and a big account's list pages render a full set of them (issue 10, decision 120). Give an
 * anchor `data-underline="hover"` as Anchor does.
 */
/** Mantine's `rem()` of a number of pixels, as its components write sizes into CSS variables and styles. */
export const rem = (px: number) => (px === 0 ? "0rem" : `calc(${px / 16}rem * var(--mantine-scale))`);

/** A theme spacing step, or a number of pixels. */
export type Spacing = "xs" | "sm" | "md" | "lg" | "xl" | number;

/** Mantine's `getSpacing()`: a step as the theme's variable, pixels as `rem()`. */
export const spacing = (value: Spacing) => (typeof value === "number" ? rem(value) : `var(--mantine-spacing-${value})`);

/** Class names as Mantine joins them: the ones given, in order, without the empty ones. */
export const joinClasses = (...names: (string | null | undefined)[]) => names.filter(Boolean).join(" ");

export const TEXT_CLASS = `mantine-focus-auto ${textClasses.root} mantine-Text-root`;
export const ANCHOR_CLASS = `mantine-focus-auto ${anchorClasses.root} ${textClasses.root} mantine-Text-root mantine-Anchor-root`;
export const GROUP_CLASS = `${groupClasses.root} mantine-Group-root`;

export type GroupJustify = "flex-start" | "flex-end" | "space-between";
export type GroupAlign = "center" | "flex-start" | "flex-end";

/** The CSS variables Group sets from its props (Mantine's defaults: gap md, centred, wrapping). */
export function groupStyle(gap: Spacing = "md", justify: GroupJustify = "flex-start", wrap: "wrap" | "nowrap" = "wrap", align: GroupAlign = "center") {
  return {
    "--group-gap": spacing(gap),
    "--group-align": align,
    "--group-justify": justify,
    "--group-wrap": wrap,
  } as CSSProperties;
}

/** The CSS variables Text sets for size="sm" (with `data-size="sm"` on the element). */
export const SMALL_TEXT_STYLE = { "--text-fz": "var(--mantine-font-size-sm)", "--text-lh": "var(--mantine-line-height-sm)" } as CSSProperties;
