import { describe, expect, it } from 'vitest';
import { allowedTypos, phoneSearchSuffixes, searchFold, searchKey, searchWords, typosToReach } from '../src/index.ts';

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

describe('a word typed with a slip', () => {
  it('finds the spellings everyone in Mexico writes: z for s, s for z, a letter swapped or missing', () => {
    expect(typosToReach('ramires', 'ramirez')).toBe(1);
    expect(typosToReach('gonzales', 'gonzalez')).toBe(1);
    expect(typosToReach('lopes', 'lopez')).toBe(1);
    expect(typosToReach('hernadez', 'hernandez')).toBe(1);
    expect(typosToReach('mraina', 'marina')).toBe(1);
    expect(typosToReach('gonzalex', 'gonzalez')).toBe(1);
  });

  it('reaches the start of a longer word: staff may not have finished typing', () => {
    expect(typosToReach('gonsal', 'gonzalez')).toBe(1);
    expect(typosToReach('ramir', 'ramirez')).toBe(0);
  });

  it('allows one slip from four letters, two from eight, none below', () => {
    expect(typosToReach('lpz', 'lopez')).toBeNull();
    expect(typosToReach('ana', 'ama')).toBeNull();
    expect(typosToReach('lopz', 'lopez')).toBe(1);
    expect(typosToReach('lpes', 'lopez')).toBeNull();
    expect(typosToReach('fernandes', 'hernandez')).toBe(2);
    expect(typosToReach('fernanda', 'gonzalez')).toBeNull();
    expect(allowedTypos(3)).toBe(0);
    expect(allowedTypos(4)).toBe(1);
    expect(allowedTypos(8)).toBe(2);
  });

  it('keeps unrelated names apart', () => {
    expect(typosToReach('maria', 'mario')).toBe(1);
    expect(typosToReach('sofia', 'diego')).toBeNull();
    expect(typosToReach('ruiz', 'cruz')).toBeNull();
  });
});
