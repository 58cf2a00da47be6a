import { describe, expect, it } from 'vitest';
import { parseCsv, toCsv } from '../../src/index.ts';

describe('the studio CSV files', () => {
  it('opens in Excel: a BOM, commas, CRLF, quotes only where a cell needs them', () => {
    const text = toCsv(['Nombre', 'Total', 'Activa'], [['Pérez, Ana', 1350, true], ['Dice "hola"', null, false]]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text).toBe('\uFEFFNombre,Total,Activa\r\n"Pérez, Ana",1350,Sí\r\n"Dice ""hola""",,No\r\n');
  });

  it('never lets a text cell run as a formula, whatever file it came from', () => {
    const hostile = ['=HYPERLINK("http://x","clic")', '+52 55 1234 5678', '-1', '@SUM(A1)'];
    const [, row] = parseCsv(toCsv(['a', 'b', 'c', 'd'], [hostile]).slice(1));
    expect(row).toEqual(hostile.map((h) => `'${h}`));
    // A number stays a number: only text is guarded.
    expect(toCsv(['n'], [[-1]])).toBe('\uFEFFn\r\n-1\r\n');
  });

  it('keeps a cell whose spaces matter and leaves an empty one empty', () => {
    expect(toCsv(['a', 'b'], [[' x ', undefined]])).toBe('\uFEFFa,b\r\n" x ",\r\n');
  });
});
