import { describe, expect, it } from 'vitest';
import { phoneSearchSuffixes, searchFold, searchKey, searchWords } from '../src/index.ts';

describe('search key', () => {
  it('ignores accents and case', () => {
    expect(searchKey('López')).toBe('lopez');
    expect(searchKey('ÁLVAREZ')).toBe('alvarez');
    expect(searchKey('Hernández')).toBe('hernandez');
    expect(searchKey('Sofía Ramírez')).toBe('sofia ramirez');
    expect(searchKey('Peña Güemes')).toBe('pena guemes');
    expect(searchKey('ana.lopez@correo.mx')).toBe('ana.lopez@correo.mx');
  });

  it('splits into the words staff type', () => {
    expect(searchWords("Ana-Sofía  O'Neil")).toEqual(['ana', 'sofia', 'o', 'neil']);
    expect(searchWords('Romero López')).toEqual(['romero', 'lopez']);
    expect(searchWords('  ')).toEqual([]);
  });

  it('maps each accented letter to one plain letter (what SQL translate needs)', () => {
    expect([...searchFold.from].length).toBe(searchFold.to.length);
    expect(searchFold.to).toMatch(/^[a-z]+$/);
    for (const c of searchFold.from) expect(c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace('ø', 'o')).toBe(searchKey(c));
  });

  it('makes every run of 4+ digits of a phone a prefix of a suffix', () => {
    const suffixes = phoneSearchSuffixes('55 1234 9666');
    expect(suffixes).toContain('9666');
    expect(suffixes).toContain('12349666');
    expect(suffixes.some((s) => s.startsWith('2349'))).toBe(true);
    expect(suffixes).not.toContain('666');
    expect(phoneSearchSuffixes('123')).toEqual([]);
  });
});
