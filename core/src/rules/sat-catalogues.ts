import { rfcKind, rfcProblem, normalizeRfc, type RfcKind, type RfcProblem } from './rfc.ts';

/**
 * The SAT's catalogues of CFDI 4.0 the product uses (Anexo 20: c_RegimenFiscal,
 * c_UsoCFDI, c_FormaPago, c_Periodicidad, cancellation motives), with the
 * columns that say which persona (física, moral) each applies to and, for
 * each CFDI use, which receiver regimes may take it. The SAT rejects a CFDI
 * whose use does not fit its receiver's regime (CFDI40158/CFDI40161), so the
 * tax profile is checked against the same columns before anything is sent.
 */

export interface TaxRegime {
  code: string;
  label: string;
  fisica: boolean;
  moral: boolean;
}

export const taxRegimes: readonly TaxRegime[] = [
  { code: '601', label: 'General de Ley Personas Morales', fisica: false, moral: true },
  { code: '603', label: 'Personas Morales con Fines no Lucrativos', fisica: false, moral: true },
  { code: '605', label: 'Sueldos y Salarios e Ingresos Asimilados a Salarios', fisica: true, moral: false },
  { code: '606', label: 'Arrendamiento', fisica: true, moral: false },
  { code: '607', label: 'Régimen de Enajenación o Adquisición de Bienes', fisica: true, moral: false },
  { code: '608', label: 'Demás ingresos', fisica: true, moral: false },
  { code: '610', label: 'Residentes en el Extranjero sin Establecimiento Permanente en México', fisica: true, moral: true },
  { code: '611', label: 'Ingresos por Dividendos (socios y accionistas)', fisica: true, moral: false },
  { code: '612', label: 'Personas Físicas con Actividades Empresariales y Profesionales', fisica: true, moral: false },
  { code: '614', label: 'Ingresos por intereses', fisica: true, moral: false },
  { code: '615', label: 'Régimen de los ingresos por obtención de premios', fisica: true, moral: false },
  { code: '616', label: 'Sin obligaciones fiscales', fisica: true, moral: false },
  { code: '620', label: 'Sociedades Cooperativas de Producción que optan por diferir sus ingresos', fisica: false, moral: true },
  { code: '621', label: 'Incorporación Fiscal', fisica: true, moral: false },
  { code: '622', label: 'Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras', fisica: false, moral: true },
  { code: '623', label: 'Opcional para Grupos de Sociedades', fisica: false, moral: true },
  { code: '624', label: 'Coordinados', fisica: false, moral: true },
  { code: '625', label: 'Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas', fisica: true, moral: false },
  { code: '626', label: 'Régimen Simplificado de Confianza', fisica: true, moral: true },
];

export interface CfdiUse {
  code: string;
  label: string;
  fisica: boolean;
  moral: boolean;
  /** The receiver regimes the SAT accepts for this use (its "Régimen Fiscal Receptor" column). */
  regimes: readonly string[];
}

/** The regimes of a business receiver: purchases, expenses and investments (G and I uses). */
const businessRegimes = ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] as const;
/** Personal deductions (D uses): people only. */
const deductionRegimes = ['605', '606', '608', '611', '612', '614', '607', '615', '625'] as const;
/** Every regime but salaries-only for payments and "no fiscal effects". */
const anyRegime = ['601', '603', '605', '606', '608', '610', '611', '612', '614', '616', '620', '621', '622', '623', '624', '607', '615', '625', '626'] as const;

export const cfdiUses: readonly CfdiUse[] = [
  { code: 'G01', label: 'Adquisición de mercancías', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'G02', label: 'Devoluciones, descuentos o bonificaciones', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'G03', label: 'Gastos en general', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'I01', label: 'Construcciones', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'I02', label: 'Mobiliario y equipo de oficina por inversiones', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'I03', label: 'Equipo de transporte', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'I04', label: 'Equipo de cómputo y accesorios', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'I05', label: 'Dados, troqueles, moldes, matrices y herramental', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'I06', label: 'Comunicaciones telefónicas', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'I07', label: 'Comunicaciones satelitales', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'I08', label: 'Otra maquinaria y equipo', fisica: true, moral: true, regimes: businessRegimes },
  { code: 'D01', label: 'Honorarios médicos, dentales y gastos hospitalarios', fisica: true, moral: false, regimes: deductionRegimes },
  { code: 'D02', label: 'Gastos médicos por incapacidad o discapacidad', fisica: true, moral: false, regimes: deductionRegimes },
  { code: 'D03', label: 'Gastos funerales', fisica: true, moral: false, regimes: deductionRegimes },
  { code: 'D04', label: 'Donativos', fisica: true, moral: false, regimes: deductionRegimes },
  { code: 'D05', label: 'Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)', fisica: true, moral: false, regimes: deductionRegimes },
  { code: 'D06', label: 'Aportaciones voluntarias al SAR', fisica: true, moral: false, regimes: deductionRegimes },
  { code: 'D07', label: 'Primas por seguros de gastos médicos', fisica: true, moral: false, regimes: deductionRegimes },
  { code: 'D08', label: 'Gastos de transportación escolar obligatoria', fisica: true, moral: false, regimes: deductionRegimes },
  { code: 'D09', label: 'Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones', fisica: true, moral: false, regimes: deductionRegimes },
  { code: 'D10', label: 'Pagos por servicios educativos (colegiaturas)', fisica: true, moral: false, regimes: deductionRegimes },
  { code: 'S01', label: 'Sin efectos fiscales', fisica: true, moral: true, regimes: anyRegime },
  { code: 'CP01', label: 'Pagos', fisica: true, moral: true, regimes: anyRegime },
  { code: 'CN01', label: 'Nómina', fisica: true, moral: false, regimes: ['605'] },
];

/**
 * The uses a studio's customer can choose: an invoice for classes is an
 * expense (G03) or has no fiscal effect for the customer (S01); goods,
 * investments, payments and payroll do not describe a class package, and a
 * CFDI with them is a false statement the customer would have to correct.
 */
export const studioCfdiUseCodes = ['G03', 'S01', 'G01'] as const;

/** SAT's cancellation motives (CFDI 4.0, since 2022). */
export const cancellationMotives = {
  '01': 'Comprobante emitido con errores con relación',
  '02': 'Comprobante emitido con errores sin relación',
  '03': 'No se llevó a cabo la operación',
  '04': 'Operación nominativa relacionada en una factura global',
} as const;
export type CancellationMotive = keyof typeof cancellationMotives;

/** c_FormaPago: how the money came, as the CFDI says it. */
export const satPaymentForms = {
  cash: '01',
  transfer: '03',
  creditCard: '04',
  debitCard: '28',
  intermediary: '31',
  toBeDefined: '99',
} as const;

/** The global invoice's periodicity: the keys facturapi takes, with the SAT's names. */
export const globalPeriodicities = {
  day: 'Diaria',
  week: 'Semanal',
  fortnight: 'Quincenal',
  month: 'Mensual',
  two_months: 'Bimestral',
} as const;
export type GlobalPeriodicity = keyof typeof globalPeriodicities;

export const regimeOf = (code: string) => taxRegimes.find((r) => r.code === code) ?? null;
export const cfdiUseOf = (code: string) => cfdiUses.find((u) => u.code === code) ?? null;

/** A Mexican postcode: five digits (the SAT checks it against the RFC's registration). */
export const isPostcode = (value: string) => /^\d{5}$/.test(value.trim());

export interface TaxProfileInput {
  rfc: string;
  legal_name: string;
  tax_regime: string;
  cfdi_use: string;
  postcode: string;
}

export type TaxProfileField = keyof TaxProfileInput;

export type TaxProfileProblem =
  | { field: 'rfc'; problem: RfcProblem }
  | { field: 'legal_name'; problem: 'empty' | 'too-long' | 'company-suffix' }
  | { field: 'tax_regime'; problem: 'unknown' | 'wrong-persona'; kind?: RfcKind }
  | { field: 'cfdi_use'; problem: 'unknown' | 'wrong-persona' | 'wrong-regime'; kind?: RfcKind }
  | { field: 'postcode'; problem: 'format' };

/**
 * A company's name as the SAT registers it, since CFDI 4.0, goes without its
 * regime of incorporation ('Estudio Demo', not 'Estudio Demo S.A. de C.V.');
 * the SAT refuses the invoice (CFDI40145) when the suffix is there.
 */
const companySuffix = /\b(S\.?\s?A\.?\s?P?\.?\s?I?\.?\s?(DE\s+)?C\.?\s?V\.?|S\.?\s?DE\s+R\.?\s?L\.?(\s+DE\s+C\.?\s?V\.?)?|S\.?\s?C\.?|A\.?\s?C\.?)\s*$/i;

/** The legal name as the CFDI carries it: upper case, single spaces (the SAT compares it with its register). */
export const normalizeLegalName = (value: string) => value.normalize('NFC').trim().replace(/\s+/g, ' ').toUpperCase();

/**
 * The first reason a customer's tax profile cannot be invoiced, or null:
 * the RFC (format, date, check digit), the name, the regime (one of the
 * catalogue's, of the RFC's persona), the CFDI use (of the catalogue, for
 * that persona and accepted with that regime) and the fiscal postcode.
 */
export function taxProfileProblem(input: TaxProfileInput): TaxProfileProblem | null {
  const rfc = rfcProblem(input.rfc);
  if (rfc) return { field: 'rfc', problem: rfc };
  const kind = rfcKind(normalizeRfc(input.rfc)) as RfcKind;
  const name = normalizeLegalName(input.legal_name);
  if (!name) return { field: 'legal_name', problem: 'empty' };
  if (name.length > 254) return { field: 'legal_name', problem: 'too-long' };
  if (kind === 'moral' && companySuffix.test(name)) return { field: 'legal_name', problem: 'company-suffix' };
  const regime = regimeOf(input.tax_regime.trim());
  if (!regime) return { field: 'tax_regime', problem: 'unknown' };
  if (!regime[kind]) return { field: 'tax_regime', problem: 'wrong-persona', kind };
  const use = cfdiUseOf(input.cfdi_use.trim());
  if (!use) return { field: 'cfdi_use', problem: 'unknown' };
  if (!use[kind]) return { field: 'cfdi_use', problem: 'wrong-persona', kind };
  if (!use.regimes.includes(regime.code)) return { field: 'cfdi_use', problem: 'wrong-regime' };
  if (!isPostcode(input.postcode)) return { field: 'postcode', problem: 'format' };
  return null;
}
