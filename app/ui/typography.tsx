import badgeClasses from "@mantine-parts/components/Badge/Badge.module.css.mjs";
import listClasses from "@mantine-parts/components/List/List.module.css.mjs";
import themeIconClasses from "@mantine-parts/components/ThemeIcon/ThemeIcon.module.css.mjs";
import titleClasses from "@mantine-parts/components/Title/Title.module.css.mjs";
import { Link, type LinkProps } from "@remix-run/react";
import { createContext, useContext, type ComponentPropsWithoutRef, type CSSProperties, type ReactNode } from "react";
import { ANCHOR_CLASS, joinClasses, rem, spacing, styleProps, TEXT_CLASS, themeColor, type Spacing, type StyleProps, type ThemeColor } from "./plain-parts";

/**
 * Mantine's Text, Title, Anchor, List, Badge and ThemeIcon as the HTML they render for the props the portal
 * passes (their classes, data attributes and CSS variables; tests/ui/plain-typography.test.tsx compares them),
 * so Mantine's stylesheets draw them unchanged. Mantine's components bring its provider, styles API and Box
 * machinery to every page's JavaScript, and run it per element on the server (issue 10, decision 127).
 */

type TextSize = "xs" | "sm" | "lg";

/** The variables Text, Anchor and List set for a font size (with `data-size` on the element). */
const fontSize = (prefix: "text" | "list", size: TextSize | undefined) =>
  size ? { [`--${prefix}-fz`]: `var(--mantine-font-size-${size})`, [`--${prefix}-lh`]: `var(--mantine-line-height-${size})` } : {};

export interface TextProps extends StyleProps, Omit<ComponentPropsWithoutRef<"p">, "style" | "color"> {
  size?: TextSize;
  /** Inline text (Mantine's `span` or `component="span"`): a `<span>` instead of a paragraph. */
  span?: boolean;
}

/** Mantine's Text: a paragraph, or a `<span>` inside other text. */
export function Text({ size, span = false, className, mt, mb, ml, c, fw, ta, miw, ...others }: TextProps) {
  const Element = span ? "span" : "p";
  return (
    <Element
      className={joinClasses(TEXT_CLASS, className)}
      style={{ ...fontSize("text", size), ...styleProps({ mt, mb, ml, c, fw, ta, miw }) } as CSSProperties}
      data-size={size}
      {...others}
    />
  );
}

/** Mantine's Anchor rendered as a Remix `<Link>` (every anchor in the portal is a link within it). */
export function Anchor({ size, ...others }: LinkProps & { size?: "sm" }) {
  return <Link className={ANCHOR_CLASS} style={fontSize("text", size) as CSSProperties} data-size={size} data-underline="hover" {...others} />;
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
  return <Heading className={`${titleClasses.root} mantine-Title-root`} style={style} data-size={size} data-order={order} {...others} />;
}

/** Mantine's bordered colour variables for a filled or light part (badge, theme icon), the border transparent. */
const BORDER = `${rem(1)} solid transparent`;
const filled = (color: ThemeColor) => ({ bg: themeColor(color), color: "var(--mantine-color-white)" });

/**
 * Light badges: a palette's own light colours, or for one shade the 10% tint of its colour (red.9 is Mantine's
 * #c92a2a, yellow.9 the theme's #7d4a00) with the palette's shade 6 as text, as Mantine's variant resolver gives.
 */
const LIGHT = {
  gatekeeper: { bg: "var(--mantine-color-gatekeeper-light)", color: "var(--mantine-color-gatekeeper-light-color)" },
  yellow: { bg: "var(--mantine-color-yellow-light)", color: "var(--mantine-color-yellow-light-color)" },
  "yellow.9": { bg: "rgba(125, 74, 0, 0.1)", color: "var(--mantine-color-yellow-6)" },
  "red.9": { bg: "rgba(201, 42, 42, 0.1)", color: "var(--mantine-color-red-6)" },
};

export type BadgeLook = { variant: "light"; color?: Exclude<keyof typeof LIGHT, "gatekeeper"> } | { variant: "filled"; color: ThemeColor };

/** Mantine's Badge: a label in the theme's primary colour unless given one. */
export function Badge({ size, ml, children, ...look }: BadgeLook & { size?: "sm"; ml?: Spacing; children: ReactNode }) {
  const colors = look.variant === "filled" ? filled(look.color) : LIGHT[look.color ?? "gatekeeper"];
  const style = {
    ...(size
      ? { "--badge-height": `var(--badge-height-${size})`, "--badge-padding-x": `var(--badge-padding-x-${size})`, "--badge-fz": `var(--badge-fz-${size})` }
      : {}),
    "--badge-bg": colors.bg,
    "--badge-color": colors.color,
    "--badge-bd": BORDER,
    ...styleProps({ ml }),
  } as CSSProperties;
  return (
    <div className={`${badgeClasses.root} mantine-Badge-root`} style={style} data-variant={look.variant} data-size={size}>
      <span className={`${badgeClasses.label} mantine-Badge-label`}>{children}</span>
    </div>
  );
}

/**
 * Mantine's ThemeIcon (filled, round): a mark in a coloured circle. Mantine also leaks its `color` and `radius`
 * props onto the `<div>` as attributes, which mean nothing there; they are left out.
 */
export function ThemeIcon({ size, color, children, ...others }: { size: number; color: ThemeColor; children: ReactNode } & ComponentPropsWithoutRef<"div">) {
  const colors = filled(color);
  const style = {
    "--ti-size": rem(size),
    "--ti-radius": "var(--mantine-radius-xl)",
    "--ti-bg": colors.bg,
    "--ti-color": colors.color,
    "--ti-bd": BORDER,
  } as CSSProperties;
  return (
    <div className={`${themeIconClasses.root} mantine-ThemeIcon-root`} style={style} {...others}>
      {children}
    </div>
  );
}

/** Whether the list centres its items' icons on their first line (Mantine's `center`). */
const CenteredList = createContext(false);

interface ListProps extends Omit<ComponentPropsWithoutRef<"ul">, "style"> {
  size?: "sm";
  spacing?: Spacing;
  center?: boolean;
}

/** Mantine's List (unordered, bulleted unless its items have icons). */
function ListRoot({ size, spacing: gap, center = false, ...others }: ListProps) {
  const style = { ...fontSize("list", size), ...(gap === undefined ? {} : { "--list-spacing": spacing(gap) }) } as CSSProperties;
  return (
    <CenteredList.Provider value={center}>
      <ul className={`${listClasses.root} mantine-List-root`} style={style} data-size={size} {...others} />
    </CenteredList.Provider>
  );
}

interface ListItemProps extends Omit<ComponentPropsWithoutRef<"li">, "style" | "color"> {
  /** A mark in place of the bullet (a ThemeIcon). */
  icon?: ReactNode;
  c?: ThemeColor;
}

function ListItem({ icon, c, children, ...others }: ListItemProps) {
  const center = useContext(CenteredList);
  return (
    <li
      className={`${listClasses.item} mantine-List-item`}
      style={styleProps({ c })}
      data-with-icon={icon ? true : undefined}
      data-centered={center || undefined}
      {...others}
    >
      <div className={`${listClasses.itemWrapper} mantine-List-itemWrapper`}>
        {icon ? <span className={`${listClasses.itemIcon} mantine-List-itemIcon`}>{icon}</span> : null}
        <span className="mantine-List-itemLabel">{children}</span>
      </div>
    </li>
  );
}

export const List = Object.assign(ListRoot, { Item: ListItem });
