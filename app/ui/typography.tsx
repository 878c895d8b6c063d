import titleClasses from "@mantine-parts/components/Title/Title.module.css.mjs";
import { Link, type LinkProps } from "~/ui/link";
import type { ComponentPropsWithoutRef, CSSProperties } from "react";
import {
  ANCHOR_CLASS,
  fontSize,
  joinClasses,
  styleProps,
  TEXT_CLASS,
  type FontSize,
  type Spacing,
  type StyleProps,
} from "./plain-parts";

/**
 * Mantine's Text, Title and Anchor as the HTML they render for the props the portal passes (their classes, data
 * attributes and CSS variables; tests/ui/plain-typography.test.tsx compares them), so Mantine's stylesheets draw
 * them unchanged. Mantine's components bring its provider, styles API and Box machinery to every page's
 * JavaScript, and run it per element on the server (decision 127). Badges are in badge.tsx and lists in
 * list.tsx: a module's code loads whole with the first part a page uses, and most pages show neither.
 */

export interface TextProps extends StyleProps, Omit<ComponentPropsWithoutRef<"p">, "style" | "color"> {
  size?: FontSize;
  /** Inline text (Mantine's `span` or `component="span"`): a `<span>` instead of a paragraph. */
  span?: boolean;
}

/** Mantine's Text: a paragraph, or a `<span>` inside other text. */
export function Text({ size, span = false, className, mt, mb, ml, c, fw, ta, miw, ...others }: TextProps) {
  const Element = span ? "span" : "p";
  return (
    <Element
      className={joinClasses(TEXT_CLASS, className)}
      style={{ ...fontSize("text", size), ...styleProps({ mt, mb, ml, c, fw, ta, miw }) }}
      data-size={size}
      {...others}
    />
  );
}

/** Mantine's Anchor rendered as the portal's `<Link>` from `~/ui/link` (every anchor in the portal is a link within it). */
export function Anchor({ size, ...others }: LinkProps & { size?: "sm" }) {
  return (
    <Link className={ANCHOR_CLASS} style={fontSize("text", size)} data-size={size} data-underline="hover" {...others} />
  );
}

export interface TitleProps extends Omit<ComponentPropsWithoutRef<"h2">, "style" | "color"> {
  /** The heading level: pages have their own `<h1>`, sections and cards these. */
  order: 2 | 3;
  /** A smaller look than the level's own (Mantine's `size="h4"`). */
  size?: "h4" | "h5";
  mb?: Spacing;
}

/** Mantine's Title: a heading drawn at its level's size or a smaller one. */
export function Title({ order, size, mb, ...others }: TitleProps) {
  const Heading = order === 2 ? "h2" : "h3";
  const look = size ?? `h${order}`;
  const style = {
    "--title-fw": `var(--mantine-${look}-font-weight)`,
    "--title-lh": `var(--mantine-${look}-line-height)`,
    "--title-fz": `var(--mantine-${look}-font-size)`,
    ...styleProps({ mb }),
  } as CSSProperties;
  return (
    <Heading
      className={`${titleClasses.root} mantine-Title-root`}
      style={style}
      data-size={size}
      data-order={order}
      {...others}
    />
  );
}
