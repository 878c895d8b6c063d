import badgeClasses from "@mantine-parts/components/Badge/Badge.module.css.mjs";
import type { CSSProperties, ReactNode } from "react";
import {
  filledColors,
  lightColors,
  styleProps,
  TRANSPARENT_BORDER,
  type Spacing,
  type ThemeColor,
} from "./plain-parts";

/**
 * Mantine's Badge as the HTML it renders for the props the portal passes (tests/ui/plain-typography.test.tsx
 * compares them): its own file, as only list pages show badges (decision 127).
 */

/**
 * Light badges in one shade: the 10% tint of the shade's colour (red.9 is Mantine's #c92a2a, yellow.9 the theme's
 * #7d4a00) with the palette's shade 6 as text, as Mantine's variant resolver gives; a palette is `lightColors`.
 */
const LIGHT_SHADES = {
  "yellow.9": { bg: "rgba(125, 74, 0, 0.1)", color: "var(--mantine-color-yellow-6)" },
  "red.9": { bg: "rgba(201, 42, 42, 0.1)", color: "var(--mantine-color-red-6)" },
};
type LightColor = "yellow" | keyof typeof LIGHT_SHADES;

export type BadgeLook = { variant: "light"; color?: LightColor } | { variant: "filled"; color: ThemeColor };

const lightBadgeColors = (color: LightColor | "gatekeeper") =>
  color === "yellow" || color === "gatekeeper" ? lightColors(color) : LIGHT_SHADES[color];

/** Mantine's Badge: a label in the theme's primary colour unless given one. */
export function Badge({ size, ml, children, ...look }: BadgeLook & { size?: "sm"; ml?: Spacing; children: ReactNode }) {
  const colors = look.variant === "filled" ? filledColors(look.color) : lightBadgeColors(look.color ?? "gatekeeper");
  const style = {
    ...(size
      ? {
          "--badge-height": `var(--badge-height-${size})`,
          "--badge-padding-x": `var(--badge-padding-x-${size})`,
          "--badge-fz": `var(--badge-fz-${size})`,
        }
      : {}),
    "--badge-bg": colors.bg,
    "--badge-color": colors.color,
    "--badge-bd": TRANSPARENT_BORDER,
    ...styleProps({ ml }),
  } as CSSProperties;
  return (
    <div
      className={`${badgeClasses.root} mantine-Badge-root`}
      style={style}
      data-variant={look.variant}
      data-size={size}
    >
      <span className={`${badgeClasses.label} mantine-Badge-label`}>{children}</span>
    </div>
  );
}
