/**
 * The CSV files the studio keeps (decision 034: the owner's exports, the personal data download, an import's
 * results): text that Excel in Spanish (Mexico) opens by double click. UTF-8 with a byte order mark (so 'Pérez'
 * stays 'Pérez'), comma separated (Mexico's list separator; its decimal point is '.', so '1350.00' is a number),
 * CRLF line ends. A text cell that starts with = + - @ gets a leading apostrophe, so a name, even one brought over
 * from another system's file, cannot run as a formula.
 */
export type CsvCell = string | number | boolean | null | undefined;

function cell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'boolean' ? (value ? 'Sí' : 'No') : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV text with its BOM: a header row and one row per record. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}
