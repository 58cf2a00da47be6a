import { z } from 'zod';

type RawIssue = Parameters<NonNullable<z.core.$ZodConfig['localeError']>>[0];

const count = (n: number | bigint) => (typeof n === 'bigint' ? n.toString() : n.toLocaleString('es-MX'));
const plural = (n: number | bigint, one: string, many: string) => (Number(n) === 1 ? one : many);
const isEmpty = (input: unknown) => input === undefined || input === null || (typeof input === 'string' && input.trim() === '');

/** What a wrong kind of value is called, by what was expected. */
const expectedKind: Partial<Record<string, string>> = {
  number: 'Debe ser un número.',
  int: 'Debe ser un número entero.',
  bigint: 'Debe ser un número entero.',
  string: 'Debe ser un texto.',
  boolean: 'Debe ser sí o no.',
  date: 'Debe ser una fecha.',
  array: 'Debe ser una lista.',
  set: 'Debe ser una lista.',
  file: 'Debe ser un archivo.',
};

const formatMessages: Partial<Record<string, string>> = {
  email: 'El correo electrónico no es válido.',
  url: 'La dirección web no es válida.',
  date: 'La fecha no es válida.',
  datetime: 'La fecha y hora no son válidas.',
  time: 'La hora no es válida.',
};

/**
 * Every validation message the product can show, written for people: a
 * customer or a receptionist reads 'Puede tener hasta 100 caracteres.', never
 * zod's own 'Demasiado grande: se esperaba que texto tuviera <=100 caracteres'.
 * Schemas that know better say it themselves (`{ error: '…' }`); this is what
 * every other check says. It covers every issue code, so no library text is left.
 */
export function peopleMessage(issue: RawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (isEmpty(issue.input)) return 'Debes llenar este campo.';
      return expectedKind[issue.expected] ?? 'El valor no es válido.';
    case 'too_big': {
      const max = issue.maximum;
      if (issue.origin === 'string') return issue.exact ? `Debe tener ${count(max)} ${plural(max, 'carácter', 'caracteres')}.` : `Puede tener hasta ${count(max)} ${plural(max, 'carácter', 'caracteres')}.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Puede tener hasta ${count(max)} ${plural(max, 'elemento', 'elementos')}.`;
      if (issue.origin === 'file') return 'El archivo es demasiado grande.';
      if (issue.origin === 'date') return 'La fecha es demasiado lejana.';
      return issue.inclusive === false ? `Debe ser menor que ${count(max)}.` : `Debe ser como máximo ${count(max)}.`;
    }
    case 'too_small': {
      const min = issue.minimum;
      if (issue.origin === 'string') {
        if (Number(min) <= 1 || isEmpty(issue.input)) return 'Debes llenar este campo.';
        return issue.exact ? `Debe tener ${count(min)} ${plural(min, 'carácter', 'caracteres')}.` : `Debe tener al menos ${count(min)} ${plural(min, 'carácter', 'caracteres')}.`;
      }
      if (issue.origin === 'array' || issue.origin === 'set') return Number(min) <= 1 ? 'Elige al menos una opción.' : `Elige al menos ${count(min)} opciones.`;
      if (issue.origin === 'file') return 'El archivo está vacío.';
      if (issue.origin === 'date') return 'La fecha es demasiado antigua.';
      return issue.inclusive === false ? `Debe ser mayor que ${count(min)}.` : `Debe ser al menos ${count(min)}.`;
    }
    case 'invalid_format':
      return formatMessages[issue.format] ?? 'El formato no es válido.';
    case 'invalid_value':
      return 'Elige una de las opciones.';
    case 'not_multiple_of':
      return `Debe ser múltiplo de ${count(issue.divisor)}.`;
    case 'unrecognized_keys':
      return 'Este campo no existe en esta operación.';
    default:
      return 'El valor no es válido.';
  }
}

// Every validation message of the product is Spanish for people, in every package that validates.
z.config({ localeError: peopleMessage });
// In a browser, zod's probe for `new Function` (to compile object parsers) is refused by the portal's content-security
// policy and reported as a violation; it must be off before the first schema is built. Node keeps the faster compiled parsers.
if ('document' in globalThis) z.config({ jitless: true });

export { z };

/**
 * The largest value of a PostgreSQL `integer` column. Ids are integer
 * identities: a bigger id in a request is a validation error, not a query
 * the database refuses with "out of range" (a 500).
 */
export const maxInt4 = 2_147_483_647;

/**
 * The longest text a schema takes (its `.max()`), looking through optional,
 * nullable, default and pipe wrappers; undefined when it sets none. Forms set
 * an input's maxLength from it, so the browser stops where the server would refuse.
 */
export function maxLengthOf(schema: z.core.$ZodType): number | undefined {
  let current: z.core.$ZodType | undefined = schema;
  for (let depth = 0; current && depth < 10; depth++) {
    const def: z.core.$ZodTypeDef & { innerType?: z.core.$ZodType; in?: z.core.$ZodType } = current._zod.def;
    if (def.type === 'string') {
      // Classic strings answer maxLength (the checks' bag fills only when a parse runs).
      const max = (current as { maxLength?: number | null }).maxLength ?? current._zod.bag.maximum;
      return typeof max === 'number' && Number.isFinite(max) ? max : undefined;
    }
    current = def.type === 'pipe' ? def.in : def.innerType;
  }
  return undefined;
}
