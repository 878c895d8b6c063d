import { Badge } from "@mantine-parts/components/Badge/Badge.mjs";
import type { LicenseStatus } from "~/domain/license-status";
import { ACCESSIBLE_GREEN } from "./theme";

/** A license's status as the spec shows it: Active in green, Expired in red. */
export function LicenseStatusBadge({ status }: { status: LicenseStatus }) {
  return (
    <Badge color={status === "active" ? ACCESSIBLE_GREEN : "red.9"} variant="filled">
      {status === "active" ? "Active" : "Expired"}
    </Badge>
  );
}
