import { describe, expect, it } from 'vitest';
import { normalizeRfc, rfcCheckDigit, rfcKind, rfcProblem, taxProfileProblem, taxProfileProblemText } from '../../src/index.ts';

describe('RFC', () => {
  it('computes the SAT check digit of persons and companies', () => {
    // Persons (13) and companies (12, with a leading space), including 'A' for 10 and '&' and 'Ñ' in the name part.
    for (const rfc of ['GODE561231GR8', 'CACX7605101P8', 'VADA800927DJ3', 'FUNK671228PH6', 'KAHO641101B39', 'MOFY900516NL1', 'MISC491214B86']) {
      expect(rfcCheckDigit(rfc), rfc).toBe(rfc.at(-1));
    }
    for (const rfc of ['EKU9003173C9', 'XIA190128J61', 'IIA040805DZ4', 'H&E951128469', 'URE180429TM6', 'EWE1709045U0', 'ZUÑ920208KL4', 'MAS0810247C0']) {
      expect(rfcCheckDigit(rfc), rfc).toBe(rfc.at(-1));
    }
  });

  it('tells persons from companies by their shape', () => {
    expect(rfcKind('GODE561231GR8')).toBe('fisica');
    expect(rfcKind('EKU9003173C9')).toBe('moral');
    expect(rfcKind('GODE561231GR')).toBeNull();
  });

  it('accepts a well-formed RFC written loosely', () => {
    expect(normalizeRfc(' gode-561231-gr8 ')).toBe('GODE561231GR8');
    expect(rfcProblem('gode 561231 gr8')).toBeNull();
    expect(rfcProblem('eku9003173c9')).toBeNull();
  });

  it('refuses each wrong RFC with its reason', () => {
    expect(rfcProblem('')).toBe('empty');
    expect(rfcProblem('GODE56123')).toBe('format');
    expect(rfcProblem('G0DE561231GR8')).toBe('format');
    expect(rfcProblem('GODE561331GR8')).toBe('date');
    expect(rfcProblem('GODE560230GR8')).toBe('date');
    expect(rfcProblem('GODE561231GR9')).toBe('check-digit');
    expect(rfcProblem('EKU9003173C8')).toBe('check-digit');
    expect(rfcProblem('XAXX010101000')).toBe('generic');
    expect(rfcProblem('xexx010101000')).toBe('generic');
  });

  it('knows 29 February of leap years in either century', () => {
    // 000229 is 29 Feb 2000; 960229 is 1996; 970229 never existed.
    expect(rfcProblem(`ABCD000229AB${rfcCheckDigit('ABCD000229AB0')}`)).toBeNull();
    expect(rfcProblem(`ABCD970229AB${rfcCheckDigit('ABCD970229AB0')}`)).toBe('date');
  });
});

describe('tax profile', () => {
  const person = { rfc: 'GODE561231GR8', legal_name: 'Emilio González Díaz', tax_regime: '612', cfdi_use: 'G03', postcode: '06700' };
  const company = { rfc: 'EKU9003173C9', legal_name: 'Escuela Kemper Urgate', tax_regime: '601', cfdi_use: 'G03', postcode: '26015' };

  it('accepts a person and a company whose regime and use agree', () => {
    expect(taxProfileProblem(person)).toBeNull();
    expect(taxProfileProblem(company)).toBeNull();
    expect(taxProfileProblem({ ...person, tax_regime: '605', cfdi_use: 'S01' })).toBeNull();
    expect(taxProfileProblem({ ...company, tax_regime: '626' })).toBeNull();
  });

  it('refuses a regime of the other persona', () => {
    expect(taxProfileProblem({ ...person, tax_regime: '601' })).toEqual({ field: 'tax_regime', problem: 'wrong-persona', kind: 'fisica' });
    expect(taxProfileProblem({ ...company, tax_regime: '612' })).toEqual({ field: 'tax_regime', problem: 'wrong-persona', kind: 'moral' });
  });

  it('refuses a use the regime or the persona does not allow', () => {
    // Salaries-only people cannot invoice expenses; companies have no personal deductions.
    expect(taxProfileProblem({ ...person, tax_regime: '605', cfdi_use: 'G03' })).toEqual({ field: 'cfdi_use', problem: 'wrong-regime' });
    expect(taxProfileProblem({ ...company, cfdi_use: 'D01' })).toEqual({ field: 'cfdi_use', problem: 'wrong-persona', kind: 'moral' });
    expect(taxProfileProblem({ ...person, cfdi_use: 'X99' })).toEqual({ field: 'cfdi_use', problem: 'unknown' });
  });

  it('refuses a company name with its regime of incorporation, and a bad postcode', () => {
    expect(taxProfileProblem({ ...company, legal_name: 'Escuela Kemper Urgate S.A. de C.V.' })).toEqual({ field: 'legal_name', problem: 'company-suffix' });
    expect(taxProfileProblem({ ...company, legal_name: 'Escuela Kemper Urgate SA DE CV' })).toEqual({ field: 'legal_name', problem: 'company-suffix' });
    expect(taxProfileProblem({ ...person, postcode: '6700' })).toEqual({ field: 'postcode', problem: 'format' });
  });

  it('says every refusal in Spanish without codes', () => {
    const problems = [
      taxProfileProblem({ ...person, rfc: 'GODE561231GR9' }),
      taxProfileProblem({ ...person, tax_regime: '601' }),
      taxProfileProblem({ ...person, tax_regime: '605', cfdi_use: 'G03' }),
      taxProfileProblem({ ...company, legal_name: 'X S.A. de C.V.' }),
      taxProfileProblem({ ...person, postcode: 'abc' }),
    ];
    for (const p of problems) {
      const text = taxProfileProblemText(p!);
      expect(text).toMatch(/^[A-ZÉ]/);
      expect(text).not.toMatch(/rfc|legal_name|tax_regime|cfdi_use|postcode|wrong-|check-digit/);
    }
    expect(taxProfileProblemText({ field: 'tax_regime', problem: 'wrong-persona', kind: 'fisica' })).toContain('persona física');
  });
});
