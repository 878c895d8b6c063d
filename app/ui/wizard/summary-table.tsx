import { Table } from "~/ui/table";

/** A two-column summary (label, value): what a wizard's Review step shows. */
export function SummaryTable({ label, rows }: { label: string; rows: [string, string][] }) {
  return (
    <Table withTableBorder aria-label={label}>
      <Table.Tbody>
        {rows.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th scope="row" w={220}>
              {name}
            </Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
