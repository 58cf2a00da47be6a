/**
 * `items` in lists of at most `size`, in order: an IN list a statement can carry, a batch of rows a transaction
 * writes, the lines a facturapi document takes.
 */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
