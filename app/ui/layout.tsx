import alertClasses from "@mantine-parts/components/Alert/Alert.module.css.mjs";
import cardClasses from "@mantine-parts/components/Card/Card.module.css.mjs";
import paperClasses from "@mantine-parts/components/Paper/Paper.module.css.mjs";
import simpleGridClasses from "@mantine-parts/components/SimpleGrid/SimpleGrid.module.css.mjs";
import stackClasses from "@mantine-parts/components/Stack/Stack.module.css.mjs";
import { Children, useId, type CSSProperties, type ReactNode } from "react";
import {
  GROUP_CLASS,
  groupStyle,
  joinClasses,
  lightColors,
  spacing,
  styleProps,
  TRANSPARENT_BORDER,
  type GroupAlign,
  type GroupJustify,
  type Spacing,
  type StyleProps,
} from "./plain-parts";
import type { ACCESSIBLE_GREEN } from "./theme";

/**
 * Mantine's Stack, Group, SimpleGrid, Card, Alert and Box as the HTML they render for the props the portal passes
 * (tests/ui/plain-layout.test.tsx compares them): their classes, data attributes and CSS variables, drawn by
 * Mantine's own stylesheets. Mantine's components keep its provider and Box machinery (style props, the styles
 * API, colour functions) in every page's JavaScript and run it per part on the server (decision 128; what that
 * cost: docs/performance.md).
 */

/** `data-*` attributes (test ids), passed to the root as Mantine passes them. */
type DataAttributes = { [name: `data-${string}`]: string | undefined };

interface StackProps extends Pick<StyleProps, "mt" | "mb" | "maw"> {
  gap?: Spacing;
  align?: "stretch" | "flex-start" | "flex-end";
  className?: string;
  children?: ReactNode;
}

export function Stack({ gap = "md", align = "stretch", className, children, ...style }: StackProps) {
  const variables = { "--stack-gap": spacing(gap), "--stack-align": align, "--stack-justify": "flex-start" };
  return (
    <div
      className={joinClasses(className, stackClasses.root, "mantine-Stack-root")}
      style={{ ...variables, ...styleProps(style) }}
    >
      {children}
    </div>
  );
}

interface GroupProps extends Pick<StyleProps, "mt" | "mb" | "w">, DataAttributes {
  gap?: Spacing;
  align?: GroupAlign;
  justify?: GroupJustify;
  wrap?: "wrap" | "nowrap";
  /** Children share the row equally (Mantine's `grow`, which keeps them from overflowing it). */
  grow?: boolean;
  /** A row of links is a `<nav>`, named by its `aria-label`. */
  component?: "nav";
  "aria-label"?: string;
  style?: CSSProperties;
  children?: ReactNode;
}

export function Group({
  gap = "md",
  align,
  justify,
  wrap,
  grow,
  component,
  style,
  children,
  mt,
  mb,
  w,
  ...attributes
}: GroupProps) {
  // Mantine drops false, null and empty children, and divides the row between the ones left when growing.
  const shown = Children.toArray(children).filter(Boolean);
  const Root = component ?? "div";
  const childWidth = grow
    ? `calc(${100 / shown.length}% - (${spacing(gap)} - ${spacing(gap)} / ${shown.length}))`
    : undefined;
  return (
    <Root
      className={GROUP_CLASS}
      style={
        {
          "--group-child-width": childWidth,
          ...groupStyle(gap, justify, wrap, align),
          ...style,
          ...styleProps({ mt, mb, w }),
        } as CSSProperties
      }
      data-grow={grow || undefined}
      {...attributes}
    >
      {shown}
    </Root>
  );
}

/**
 * Columns from a breakpoint on: Mantine's SimpleGrid writes the same rules into a `<style>` beside each grid,
 * under a generated class; here they are the forms layer's `gk-grid-*` rules (app/styles/forms.css), one per
 * combination the portal uses, so that only these type-check.
 */
type SimpleGridProps = (
  { cols: { base: 1; sm: 2 | 3 }; spacing?: "md" } | { cols: { base: 1; md: 2 }; spacing: "lg" }
) & {
  children?: ReactNode;
};

export function SimpleGrid({ cols, spacing: gap = "md", children }: SimpleGridProps) {
  const [breakpoint, columns] = "sm" in cols ? ["sm", cols.sm] : ["md", cols.md];
  return (
    <div
      className={joinClasses(
        simpleGridClasses.root,
        "mantine-SimpleGrid-root",
        `gk-grid-${breakpoint}-${columns}-${gap}`,
      )}
    >
      {children}
    </div>
  );
}

/** Every card in the portal is a bordered `<section>` named by its heading or a label (Mantine's Card on a Paper). */
type CardProps = {
  withBorder: true;
  padding: "md" | "lg";
  radius?: "md";
  children?: ReactNode;
} & ({ "aria-labelledby": string } | { "aria-label": string });

export function Card({ withBorder, padding, radius, children, ...name }: CardProps) {
  const variables = {
    "--paper-radius": radius && `var(--mantine-radius-${radius})`,
    "--card-padding": spacing(padding),
  } as CSSProperties;
  return (
    <section
      className={joinClasses(cardClasses.root, "mantine-Card-root", paperClasses.root, "mantine-Paper-root")}
      style={variables}
      data-with-border={withBorder}
      {...name}
    >
      {children}
    </section>
  );
}

/** The theme's colours the portal's alerts use, and the accessible green (a colour of its own, not the theme's). */
type AlertColor = "red" | "yellow" | "orange" | "blue" | "gatekeeper" | typeof ACCESSIBLE_GREEN;

interface AlertProps extends DataAttributes {
  color: AlertColor;
  /** Light is Mantine's default; saying so adds `data-variant="light"`, as Mantine does. */
  variant?: "light";
  /** `alert` (Mantine's default) for what went wrong, `status` for news that should not interrupt. */
  role?: "alert" | "status";
  title?: ReactNode;
  maw?: number;
  children?: ReactNode;
}

/** Mantine's Alert: a box named by its title and described by its message (ids as Mantine's `useId` makes them). */
export function Alert({ color, variant, role = "alert", title, maw, children, ...attributes }: AlertProps) {
  const id = `mantine-${useId().replace(/:/g, "")}`;
  const colors = lightColors(color);
  const variables = {
    "--alert-bg": colors.bg,
    "--alert-color": colors.color,
    "--alert-bd": TRANSPARENT_BORDER,
  } as CSSProperties;
  return (
    <div
      id={id}
      className={joinClasses(alertClasses.root, "mantine-Alert-root")}
      style={{ ...variables, ...styleProps({ maw }) }}
      data-variant={variant}
      role={role}
      aria-describedby={children ? `${id}-body` : undefined}
      aria-labelledby={title ? `${id}-title` : undefined}
      {...attributes}
    >
      <div className={joinClasses(alertClasses.wrapper, "mantine-Alert-wrapper")}>
        <div className={joinClasses(alertClasses.body, "mantine-Alert-body")}>
          {title ? (
            <div className={joinClasses(alertClasses.title, "mantine-Alert-title")}>
              <span id={`${id}-title`} className={joinClasses(alertClasses.label, "mantine-Alert-label")}>
                {title}
              </span>
            </div>
          ) : null}
          {children ? (
            <div
              id={`${id}-body`}
              className={joinClasses(alertClasses.message, "mantine-Alert-message")}
              data-variant={variant}
            >
              {children}
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** A box with a maximum height (Mantine's Box with `mah`), scrolling as its `style` says. */
export function Box({
  mah,
  style,
  children,
}: Pick<StyleProps, "mah"> & { style?: CSSProperties; children?: ReactNode }) {
  return <div style={{ ...style, ...styleProps({ mah }) }}>{children}</div>;
}
