/** License status: expired when valid-to is not in the future; days left rounds up. */
export type LicenseStatus = "active" | "expired";

const DAY_MS = 24 * 60 * 60 * 1000;

export function licenseStatus(validTo: Date, now: Date): LicenseStatus {
  return validTo.getTime() > now.getTime() ? "active" : "expired";
}

export function daysLeft(validTo: Date, now: Date): number {
  return Math.max(0, Math.ceil((validTo.getTime() - now.getTime()) / DAY_MS));
}

/** The license key as tables show it: its first 15 characters, then dots. */
export function shortLicenseKey(code: string): string {
  return code.length > 15 ? `${code.slice(0, 15)}...` : code;
}
