import type { ReactNode } from "react";
import { Table } from "./table";
import { Stack } from "./layout";
import { Text, Title } from "./typography";

/** One column of a ColumnsTable: its heading, and what a row shows under it. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
}

/**
 * A section of a page that is one table under its title: a striped, bordered table drawn from its columns (one
 * heading per column, one cell per column in each row, a row per item by its `id`), or the `empty` sentence when
 * there is no row. The table is named `label`; it scrolls sideways below `minWidth`.
 */
export function ColumnsTable<Row extends { id: string }>({
  title,
  label,
  columns,
  rows,
  empty,
  minWidth = 700,
}: {
  title: string;
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  empty: string;
  minWidth?: number;
}) {
  return (
    <Stack gap="xs">
      <Title order={3}>{title}</Title>
      {rows.length === 0 ? (
        <Text>{empty}</Text>
      ) : (
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
                <Table.Row key={row.id} cells={columns.map((column) => column.cell(row))} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
