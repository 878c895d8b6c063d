import { Badge } from "@mantine-parts/components/Badge/Badge.mjs";
import { Table } from "@mantine-parts/components/Table/Table.mjs";
import { formatDate } from "~/domain/format";
import type { LicenseStatus } from "~/domain/license-status";
import { ACCESSIBLE_GREEN } from "./theme";

/**
 * A license's terms as every license table shows them (spec 000 §3, 001 §2), in this order: status
 * (Active in green, Expired in red), valid from, valid to (MM/DD/YYYY) and days left.
 */
export function LicenseTermCells({ license }: { license: { status: LicenseStatus; validFrom: string; validTo: string; daysLeft: number } }) {
  return (
    <>
      <Table.Td>
        <Badge color={license.status === "active" ? ACCESSIBLE_GREEN : "red.9"} variant="filled">
          {license.status === "active" ? "Active" : "Expired"}
        </Badge>
      </Table.Td>
      <Table.Td>{formatDate(license.validFrom)}</Table.Td>
      <Table.Td>{formatDate(license.validTo)}</Table.Td>
      <Table.Td>{license.daysLeft}</Table.Td>
    </>
  );
}
