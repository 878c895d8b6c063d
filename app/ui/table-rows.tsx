import classes from "@mantine-parts/components/Table/Table.module.css.mjs";
import type { ReactNode } from "react";

/**
 * A body row of a Mantine `<Table striped>` (row borders on, column borders off: Mantine's defaults) as
 * plain elements with the HTML Table.Tr and Table.Td render: Mantine's own classes and data attributes,
 * without a Mantine component per cell. Measured on the server: ten rows of twelve Table.Td cost about
 * 2.5 ms more to render than two, these about 0.2 ms; a full page of a big account's Hubs then costs
 * about what the demo's two Hubs do (issue 10, bench "cost as data grows").
 */
export function StripedRow({ cells }: { cells: ReactNode[] }) {
  return (
    <tr className={`${classes.tr} mantine-Table-tr`} data-with-row-border="true" data-striped="odd">
      {cells.map((cell, index) => (
        // Cells are positional: a column's place never changes within a table.
        <td key={index} className={`${classes.td} mantine-Table-td`}>
          {cell}
        </td>
      ))}
    </tr>
  );
}
