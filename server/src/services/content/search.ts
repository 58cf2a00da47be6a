/** `%text%` for ILIKE with the user's own % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The row offset of a 1-based page. */
export function offsetOf(page: { page: number; limit: number }): number {
  return (page.page - 1) * page.limit;
}
