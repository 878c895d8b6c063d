import { Badge } from "~/ui/badge";
import type { ReactNode } from "react";
import { formatDate } from "~/domain/format";
import type { LicenseStatus } from "~/domain/license-status";
import { ACCESSIBLE_GREEN } from "./theme";

/**
 * A license's terms as every license table shows them, in this order: status
 * (Active in green, Expired in red), valid from, valid to (MM/DD/YYYY) and days left. Cells for a Table.Row.
 */
export function licenseTermCells(license: {
  status: LicenseStatus;
  validFrom: string;
  validTo: string;
  daysLeft: number;
}): ReactNode[] {
  return [
    <Badge key="status" color={license.status === "active" ? ACCESSIBLE_GREEN : "red.9"} variant="filled">
      {license.status === "active" ? "Active" : "Expired"}
    </Badge>,
    formatDate(license.validFrom),
    formatDate(license.validTo),
    license.daysLeft,
  ];
}
