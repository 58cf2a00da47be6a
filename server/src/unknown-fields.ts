/**
 * No silent drop (decision 032): zod's objects strip the keys they
 * do not know, so a write with a misspelt or foreign field answered 200 and
 * threw the field away. trpc.ts asks `unknownFieldOf` about every mutation's
 * raw input, before any guard or service runs, and refuses the first field
 * the procedure's input schema does not take, by its path as the client sent
 * it ('class_package_types.0.customer_limit').
 *
 * The walk reads the schema as zod would parse the value: object shapes
 * (a catchall other than never takes any key), wrappers (optional, nullable,
 * default, catch, readonly), pipes (the input side; a preprocess's output
 * side), arrays, tuples, records (any key, checked values), lazy schemas,
 * unions (the first option that accepts the value, as zod picks it) and
 * intersections (a key either side knows). Anything else (any, unknown,
 * transforms) has no fields to check.
 */

type Path = (string | number)[];
interface ZodLike {
  _zod: { def: { type: string } & Record<string, unknown> };
  safeParse?: (value: unknown) => { success: boolean };
}

const defOf = (schema: unknown) => (schema as ZodLike)._zod.def;
const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

function accepts(schema: unknown, value: unknown): boolean {
  try {
    return (schema as ZodLike).safeParse?.(value).success ?? false;
  } catch {
    // An async refinement cannot be tried synchronously: not the option zod would pick here.
    return false;
  }
}

const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional', 'success']);

function unknownPaths(schema: unknown, value: unknown, at: Path): Path[] {
  const def = defOf(schema);
  if (wrappers.has(def.type)) return unknownPaths(def.innerType, value, at);
  switch (def.type) {
    case 'object': {
      if (!isRecord(value)) return [];
      const shape = def.shape as Record<string, unknown>;
      const catchall = def.catchall;
      const open = catchall !== undefined && defOf(catchall).type !== 'never';
      return Object.entries(value).flatMap(([key, item]) => {
        if (Object.hasOwn(shape, key)) return unknownPaths(shape[key], item, [...at, key]);
        return open ? unknownPaths(catchall, item, [...at, key]) : [[...at, key]];
      });
    }
    case 'pipe':
      // z.preprocess is a pipe from a transform: the keys reach its output side.
      return defOf(def.in).type === 'transform' ? unknownPaths(def.out, value, at) : unknownPaths(def.in, value, at);
    case 'lazy':
      return unknownPaths((def.getter as () => unknown)(), value, at);
    case 'array':
      return Array.isArray(value) ? value.flatMap((item, i) => unknownPaths(def.element, item, [...at, i])) : [];
    case 'tuple': {
      if (!Array.isArray(value)) return [];
      const items = def.items as unknown[];
      return value.flatMap((item, i) => {
        const itemSchema = i < items.length ? items[i] : def.rest;
        return itemSchema ? unknownPaths(itemSchema, item, [...at, i]) : [];
      });
    }
    case 'record':
      return isRecord(value) ? Object.entries(value).flatMap(([key, item]) => unknownPaths(def.valueType, item, [...at, key])) : [];
    case 'union': {
      const chosen = (def.options as unknown[]).find((option) => accepts(option, value));
      // No option accepts it: zod refuses the value itself, with its own message.
      return chosen ? unknownPaths(chosen, value, at) : [];
    }
    case 'intersection':
      return bothUnknown([unknownPaths(def.left, value, at), unknownPaths(def.right, value, at)]);
    default:
      return [];
  }
}

/** The paths every side calls unknown (an intersection, or a procedure with several `.input()`): a key one side takes is known. */
function bothUnknown(sides: Path[][]): Path[] {
  const [first = [], ...rest] = sides;
  const key = (path: Path) => path.join('\u0000');
  const others = rest.map((side) => new Set(side.map(key)));
  return first.filter((path) => others.every((side) => side.has(key(path))));
}

/** 'class_package_types.0.customer_limit' */
const dotted = (path: Path) => path.join('.');
/** The same path with its list positions as '*', as aliases are named ('class_package_types.*.cupo'). */
const pattern = (path: Path) => path.map((part) => (typeof part === 'number' ? '*' : part)).join('.');

/**
 * The first field of `value` (in the order the client sent them) that none of
 * the procedure's input schemas takes, as a dotted path; null when every field
 * is known. A procedure without an input takes no field at all. `aliases` are
 * field paths an adapter reads on the procedure's behalf (see fieldAliases).
 */
export function unknownFieldOf(inputs: readonly unknown[], value: unknown, aliases?: ReadonlySet<string>): string | null {
  const sides = inputs.length ? inputs.map((schema) => unknownPaths(schema, value, [])) : [isRecord(value) ? Object.keys(value).map((key) => [key]) : []];
  const unknown = bothUnknown(sides).filter((path) => !aliases?.has(pattern(path)) && !isNewRecordMarker(path, value));
  return unknown[0] ? dotted(unknown[0]) : null;
}

/**
 * The spec's clients save through one helper that sends the id of a record
 * not yet made as a word, `{ "page_id": "nueva", … }`, and POSTs it (decision
 * 032). On a create that id is the record the answer carries, not a field to
 * store: a top-level `<name>_id` holding 'nueva' or 'nuevo' is let through
 * (and stripped by the schema). Any other value of an unknown id is refused.
 */
function isNewRecordMarker(path: Path, value: unknown): boolean {
  const [key, ...rest] = path;
  if (rest.length || typeof key !== 'string' || !key.endsWith('_id') || !isRecord(value)) return false;
  const marker = value[key];
  return marker === 'nueva' || marker === 'nuevo';
}

/**
 * Documented aliases of a procedure's fields (the previous admin
 * panel's names), by the procedure's dotted path: fields the unknown-field
 * check lets through because something reads them before or instead of the
 * schema (a z.preprocess that renames them). An adapter that renames the body
 * before calling the procedure needs none of this. Never list a field that
 * nothing reads: that is a silent drop again.
 */
const fieldAliases = new Map<string, Set<string>>();

export function acceptFieldAliases(procedurePath: string, fields: readonly string[]): void {
  const known = fieldAliases.get(procedurePath) ?? new Set<string>();
  for (const field of fields) known.add(field);
  fieldAliases.set(procedurePath, known);
}

export function fieldAliasesOf(procedurePath: string): ReadonlySet<string> | undefined {
  return fieldAliases.get(procedurePath);
}
