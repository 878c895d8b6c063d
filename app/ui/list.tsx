import listClasses from "@mantine-parts/components/List/List.module.css.mjs";
import themeIconClasses from "@mantine-parts/components/ThemeIcon/ThemeIcon.module.css.mjs";
import { createContext, useContext, type ComponentPropsWithoutRef, type CSSProperties, type ReactNode } from "react";
import {
  filledColors,
  fontSize,
  rem,
  spacing,
  styleProps,
  TRANSPARENT_BORDER,
  type Spacing,
  type ThemeColor,
} from "./plain-parts";

/**
 * Mantine's List and the ThemeIcon its items show as marks, as the HTML they render for the props the portal
 * passes (tests/ui/plain-typography.test.tsx compares them): their own file, as few pages have lists (decision 127).
 */

/**
 * Mantine's ThemeIcon (filled, round): a mark in a coloured circle. Mantine also leaks its `color` and `radius`
 * props onto the `<div>` as attributes, which mean nothing there; they are left out.
 */
export function ThemeIcon({
  size,
  color,
  children,
  ...others
}: { size: number; color: ThemeColor; children: ReactNode } & ComponentPropsWithoutRef<"div">) {
  const colors = filledColors(color);
  const style = {
    "--ti-size": rem(size),
    "--ti-radius": "var(--mantine-radius-xl)",
    "--ti-bg": colors.bg,
    "--ti-color": colors.color,
    "--ti-bd": TRANSPARENT_BORDER,
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
  const style = {
    ...fontSize("list", size),
    ...(gap === undefined ? {} : { "--list-spacing": spacing(gap) }),
  } as CSSProperties;
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

/** An item of a List: its label, after a mark when given one, in a colour of its own when given one. */
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
