/** Display formats: en-US, USD, dates as MM/DD/YYYY. Formatting happens only at the edge. */
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const usDate = new Intl.DateTimeFormat("en-US", { month: "2-digit", day: "2-digit", year: "numeric", timeZone: "UTC" });

export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

export function formatDate(value: Date | string | number): string {
  return usDate.format(new Date(value));
}
