import classes from "@mantine-parts/components/Table/Table.module.css.mjs";
import { createContext, useContext, type ComponentPropsWithoutRef, type CSSProperties, type ReactNode } from "react";
import { joinClasses, rem } from "./plain-parts";

/**
 * Mantine's Table as plain elements: the same tags, classes, data attributes and CSS variables Mantine's
 * `Table` renders (tests/ui/plain-parts.test.tsx compares them), so Mantine's Table stylesheet draws them
 * unchanged, without Mantine's component machinery per cell or the ScrollArea its `Table.ScrollContainer`
 * brings to every page that imports `Table` (docs/performance.md).
 * The API is Mantine's where the portal uses it: `<Table striped withTableBorder>` with `Table.Tr`, `Table.Td`...
 */

/** What a row needs from its table to carry Mantine's data attributes. */
interface RowLook {
  striped: boolean;
  highlightOnHover: boolean;
}

const RowLookContext = createContext<RowLook>({ striped: false, highlightOnHover: false });

/** Mantine's style props the portal's cells use, as the inline style Mantine renders for them. */
interface CellStyleProps {
  /** text-align */
  ta?: "right";
  /** width in px, as Mantine converts it (rem times the scale) */
  w?: number;
  /** font-weight */
  fw?: number;
  /** text-transform */
  tt?: "capitalize";
}

function cellStyle({ ta, w, fw, tt }: CellStyleProps, style: CSSProperties | undefined): CSSProperties | undefined {
  // Most cells have none: a long list renders thousands, so those allocate nothing.
  if (ta === undefined && w === undefined && fw === undefined && tt === undefined && style === undefined)
    return undefined;
  const own: CSSProperties = {
    ...(w === undefined ? {} : { width: rem(w) }),
    ...(fw === undefined ? {} : { fontWeight: fw }),
    ...(ta === undefined ? {} : { textAlign: ta }),
    ...(tt === undefined ? {} : { textTransform: tt }),
    ...style,
  };
  return Object.keys(own).length > 0 ? own : undefined;
}

/** The table: row borders on and column borders off (Mantine's defaults), vertical spacing 7px unless given. */
export function Table({
  striped = false,
  highlightOnHover = false,
  withTableBorder = false,
  horizontalSpacing,
  verticalSpacing,
  style,
  className,
  ...others
}: ComponentPropsWithoutRef<"table"> & {
  striped?: boolean;
  highlightOnHover?: boolean;
  withTableBorder?: boolean;
  horizontalSpacing?: "xs";
  verticalSpacing?: "sm";
}) {
  const variables = {
    ...(horizontalSpacing ? { "--table-horizontal-spacing": `var(--mantine-spacing-${horizontalSpacing})` } : {}),
    "--table-vertical-spacing": verticalSpacing ? `var(--mantine-spacing-${verticalSpacing})` : rem(7),
  } as CSSProperties;
  return (
    <RowLookContext.Provider value={{ striped, highlightOnHover }}>
      <table
        style={{ ...variables, ...style }}
        className={joinClasses(classes.table, "mantine-Table-table", className)}
        data-with-table-border={withTableBorder || undefined}
        {...others}
      />
    </RowLookContext.Provider>
  );
}

function Thead({ className, ...others }: ComponentPropsWithoutRef<"thead">) {
  return <thead className={joinClasses(classes.thead, "mantine-Table-thead", className)} {...others} />;
}

function Tbody({ className, ...others }: ComponentPropsWithoutRef<"tbody">) {
  return <tbody className={joinClasses(classes.tbody, "mantine-Table-tbody", className)} {...others} />;
}

/** Mantine has no class of its own for the footer, only the static one. */
function Tfoot({ className, ...others }: ComponentPropsWithoutRef<"tfoot">) {
  return <tfoot className={joinClasses("mantine-Table-tfoot", className)} {...others} />;
}

/** Mantine's captions are below the table unless told otherwise. */
function Caption({ className, ...others }: ComponentPropsWithoutRef<"caption">) {
  return (
    <caption
      className={joinClasses(classes.caption, "mantine-Table-caption", className)}
      data-side="bottom"
      {...others}
    />
  );
}

/** A row's or cell's classes: Mantine's, joined once, and the caller's own if any. */
const withOwn = (mantine: string, own: string | undefined) => (own ? `${mantine} ${own}` : mantine);

const TR_CLASS = joinClasses(classes.tr, "mantine-Table-tr");

function Tr({ className, ...others }: ComponentPropsWithoutRef<"tr">) {
  const { striped, highlightOnHover } = useContext(RowLookContext);
  return (
    <tr
      className={withOwn(TR_CLASS, className)}
      data-with-row-border="true"
      data-striped={striped ? "odd" : undefined}
      data-hover={highlightOnHover || undefined}
      {...others}
    />
  );
}

function Th({ className, style, ta, w, fw, tt, ...others }: ComponentPropsWithoutRef<"th"> & CellStyleProps) {
  return (
    <th
      style={cellStyle({ ta, w, fw, tt }, style)}
      className={joinClasses(classes.th, "mantine-Table-th", className)}
      {...others}
    />
  );
}

const TD_CLASS = joinClasses(classes.td, "mantine-Table-td");

function Td({ className, style, ta, w, fw, tt, ...others }: ComponentPropsWithoutRef<"td"> & CellStyleProps) {
  return <td style={cellStyle({ ta, w, fw, tt }, style)} className={withOwn(TD_CLASS, className)} {...others} />;
}

/**
 * A body row from its cells (as the license lists and their shared term cells build them). Cells are
 * positional: a column's place never changes within a table. Each cell is Td's HTML, not the Td component: a
 * list renders one per cell, and the component takes its props apart and asks for a style every time.
 */
function Row({ cells }: { cells: ReactNode[] }) {
  return (
    <Tr>
      {cells.map((cell, index) => (
        <td key={index} className={TD_CLASS}>
          {cell}
        </td>
      ))}
    </Tr>
  );
}

/**
 * Mantine's `Table.ScrollContainer type="native"`: the table scrolls sideways in a plain box below its minimum
 * width. Mantine's default (a ScrollArea) rendered its viewport with `overflow: hidden` on the server, so without
 * JavaScript a narrow window could not scroll the table at all.
 */
function ScrollContainer({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  return (
    <div
      style={{ "--table-min-width": rem(minWidth), "--table-overflow": "auto" } as CSSProperties}
      className={`${classes.scrollContainer} mantine-TableScrollContainer-scrollContainer`}
    >
      <div className={`${classes.scrollContainerInner} mantine-TableScrollContainer-scrollContainerInner`}>
        {children}
      </div>
    </div>
  );
}

Table.Thead = Thead;
Table.Tbody = Tbody;
Table.Tfoot = Tfoot;
Table.Caption = Caption;
Table.Tr = Tr;
Table.Th = Th;
Table.Td = Td;
Table.Row = Row;
Table.ScrollContainer = ScrollContainer;
