import fc from 'fast-check';
import type { z } from '@estudio/core';
import { defs, omittable, sample } from './router-walk.ts';

/**
 * fast-check arbitraries of hostile input, derived from a procedure's own zod
 * schema: each field keeps a valid sample, goes missing, or gets a value of
 * the wrong type, out of range, huge, unicode-heavy, SQL- or HTML-looking;
 * extra fields (mass assignment, prototype keys) ride along. Keeping valid
 * samples beside the hostile field lets the hostile one reach the service and
 * the database instead of stopping at the first missing field.
 */

export const sqlStrings = [
  "Robert'); DROP TABLE customer;--",
  "' OR '1'='1' --",
  "1; SELECT pg_sleep(5)--",
  '%_\\',
  "'; TRUNCATE auth_user CASCADE; --",
  '$$; DROP TABLE customer; $$',
  "\\'; select version(); --",
];
export const htmlStrings = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '"><svg onload=alert(1)>',
  '{{constructor.constructor("alert(1)")()}}',
];
export const unicodeStrings = [
  '👩‍👩‍👧‍👦🏋️‍♀️🔥',
  '\u202Eأهلا بالعالم\u202C',
  'שלום עולם',
  'e\u0301\u0302\u0303\u0304\u0305',
  'Z̷̢̛̪͓̈́a̸̡̜͊l̵̨̛g̶o̴',
  'a\u0000b',
  '\u0000',
  // Lone surrogates: valid in a JS string and in escaped JSON, not in UTF-8.
  '\uD800',
  'x\uDFFFy',
  '\uFEFF\u200B\u2060',
  'İıß',
  '\r\n\t',
  ' ',
];

/**
 * A number written as raw JSON text, for values JavaScript cannot hold
 * (2^53+1, 1e309 which parses to Infinity) or would rewrite (-0 becomes 0).
 */
export class RawNumber {
  constructor(readonly text: string) {}
  toJSON() {
    return `@@raw:${this.text}@@`;
  }
  toString() {
    return this.text;
  }
}

/** JSON of a generated value, RawNumbers written as bare number text. */
export const toJson = (value: unknown) => JSON.stringify(value).replace(/"@@raw:([^@"]+)@@"/g, '$1');

const edgeNumbers: unknown[] = [
  NaN,
  Infinity,
  -Infinity,
  1e308,
  -1e308,
  2 ** 31,
  -(2 ** 31) - 1,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_VALUE,
  0.1,
  1.5,
  -1,
  0,
  new RawNumber('-0'),
  new RawNumber('9007199254740993'),
  new RawNumber('-9007199254740993'),
  new RawNumber('1e309'),
  new RawNumber('1e-400'),
];

/** Nesting deep enough to hurt a recursive parser or validator, shallow enough for V8's JSON. */
const deep = (depth: number) => {
  let value: unknown = 'fondo';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  // fast-check prints a counterexample recursively; this keeps its report from overflowing the stack.
  return Object.assign(value as object, { [fc.toStringMethod]: () => `<${depth} niveles de anidación>` });
};

const hugeStrings = ['x'.repeat(200_000), '💥'.repeat(50_000), `${'\u0301'.repeat(20_000)}a`];

export const wrongType = fc.constantFrom<unknown>(null, true, false, 0, '', [], {}, [1, 'a'], { $gt: '' }, 'true', 'null');
export const anyNumber = fc.oneof(fc.constantFrom(...edgeNumbers), fc.double(), fc.integer({ min: -(2 ** 31), max: 2 ** 31 }));
export const anyString = fc.oneof(
  { arbitrary: fc.constantFrom(...sqlStrings, ...htmlStrings, ...unicodeStrings), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 1 },
  { arbitrary: fc.constantFrom(...hugeStrings), weight: 1 },
);
const numericStrings = fc.constantFrom('1', ' 1 ', '1e3', 'NaN', 'Infinity', '-0', '0x1F', '1_000', '٣', '9007199254740993', '');
const deepValue = fc.constantFrom(deep(3000), Array.from({ length: 10_000 }, () => 1));
/** Anything at all, for fields the schema does not describe. */
export const anyLeaf = fc.oneof(anyString, anyNumber, wrongType, { arbitrary: deepValue, weight: 1 });

type Def = Record<string, unknown> & { type: string };

/** A hostile value for one schema position (never a valid sample: that is offered beside it). */
export function hostileFor(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = defs(schema) as Def;
  const inner = (key: string) => hostileFor(def[key] as z.ZodType, depth + 1);
  switch (def.type) {
    case 'optional':
    case 'nonoptional':
    case 'nullable':
    case 'readonly':
    case 'catch':
    case 'default':
    case 'prefault':
      return inner('innerType');
    case 'lazy':
      return hostileFor((def.getter as () => z.ZodType)(), depth + 1);
    case 'object':
      return depth > 3 ? anyLeaf : hostileObject(schema, depth + 1);
    case 'array':
      return fc.oneof(
        fc.array(depth > 3 ? anyLeaf : hostileFor(def.element as z.ZodType, depth + 1), { maxLength: 3 }),
        fc.constant(Array.from({ length: 10_000 }, () => 1)),
        anyString,
        wrongType,
      );
    case 'number':
    case 'int':
    case 'bigint':
      return fc.oneof(anyNumber, numericStrings, wrongType);
    case 'boolean':
      return fc.oneof(fc.constantFrom<unknown>('false', 'true', 0, 1, 'sí', 'on'), wrongType);
    case 'date':
      return fc.oneof(fc.constantFrom('2030-02-30', '0000-00-00', '+275760-09-13T00:00:00.001Z', 'mañana', '2030-01-15T25:61:00Z'), anyNumber, wrongType);
    case 'string':
    case 'enum':
    case 'literal':
    case 'pipe':
    case 'union':
    default:
      return fc.oneof({ arbitrary: anyString, weight: 3 }, { arbitrary: anyNumber, weight: 1 }, { arbitrary: wrongType, weight: 1 }, { arbitrary: deepValue, weight: 1 });
  }
}

/** Keys a client should never get to set, and keys that poke at prototypes and query operators. */
const extraKeys = ['__proto__', 'constructor', 'prototype', 'role', 'customer_id', 'uid', 'createdAt', 'deletedAt', 'extra', '$where', '0'];

/** Extra fields: mass assignment and prototype pollution attempts. */
export const extraFields = fc.dictionary(fc.constantFrom(...extraKeys), anyLeaf, { maxKeys: 2 });

function hostileObject(schema: z.ZodType, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const shape = (defs(schema) as Def).shape as Record<string, z.ZodType>;
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, field] of Object.entries(shape)) {
    const valid = sample(field, omittable(field) ? 'full' : 'minimal');
    fields[key] = fc.oneof(
      { arbitrary: fc.constant(valid), weight: 2 },
      { arbitrary: hostileFor(field, depth), weight: 3 },
      // Missing: undefined disappears from JSON and from the query string.
      { arbitrary: fc.constant(undefined), weight: 1 },
    );
  }
  return fc.tuple(fc.record(fields), extraFields).map(([known, extra]) => ({ ...extra, ...known }));
}

/** A whole hostile input for a procedure: usually its object mangled field by field, sometimes not an object at all. */
export function hostileInput(schema: z.ZodType | undefined): fc.Arbitrary<unknown> {
  if (!schema) return extraFields;
  let objectSchema: z.ZodType | undefined = schema;
  // `.optional()` and the like around the object.
  while (objectSchema && (defs(objectSchema) as Def).type !== 'object' && (defs(objectSchema) as Def).innerType) {
    objectSchema = (defs(objectSchema) as Def).innerType as z.ZodType;
  }
  const structured = objectSchema && (defs(objectSchema) as Def).type === 'object' ? hostileObject(objectSchema, 0) : hostileFor(schema);
  return fc.oneof(
    { arbitrary: structured, weight: 5 },
    { arbitrary: fc.oneof(fc.array(anyLeaf, { maxLength: 3 }), anyString, anyNumber, wrongType), weight: 1 },
  );
}
