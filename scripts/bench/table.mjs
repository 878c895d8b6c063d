/**
 * A plain-text table with fixed-width columns. `columns` are [header, align] pairs ("l" or "r");
 * cells are strings.
 */
export function table(columns, rows) {
  const widths = columns.map(([header], i) => Math.max(header.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells
      .map((cell, i) => (columns[i][1] === "r" ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [
    line(columns.map(([header]) => header)),
    widths.map((width) => "-".repeat(width)).join("  "),
    ...rows.map(line),
  ].join("\n");
}

/** Bytes as kB (1 kB = 1000 B, like the link's kbps). */
export const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
