import type { ReactNode } from "react";
import { Table } from "./table";
import { Text } from "./typography";

/** One column of a ColumnsTable: its heading, and what a row shows under it. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
}

/**
 * A striped, bordered table drawn from its columns: one heading per column, one cell per column in each row, and
 * the `empty` sentence instead of a table when there is no row. It scrolls sideways below `minWidth`.
 */
export function ColumnsTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  minWidth = 700,
}: {
  /** The table's accessible name. */
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  empty: string;
  minWidth?: number;
}) {
  if (rows.length === 0) return <Text>{empty}</Text>;
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped withTableBorder aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th scope="col" key={column.header}>
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Row key={rowKey(row)} cells={columns.map((column) => column.cell(row))} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
