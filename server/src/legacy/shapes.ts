import { studioDayjs } from '@estudio/core';

/**
 * The previous admin panel's shapes (decision 033), as pure
 * functions: the names it sends and the envelopes it reads, mapped to and
 * from the spec's. Nothing here decides a rule; the procedures do.
 */

export type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/** The panel saves a new record with its id set to a word ('nueva', 'nuevo'): it means "create", so the key goes. */
const newRecordId = /^nuev[oa]$/i;

/** A whole number sent as text ("12"), as the panel's inputs send them. */
const wholeNumberText = /^-?\d{1,9}$/;

/**
 * The body with the panel's habits undone: the `*_id` keys set to 'nueva'
 * or 'nuevo' removed, the named keys' number texts turned into numbers, and
 * each alias renamed to the spec's name (when both are sent, the spec's name
 * wins if it is set, the alias is dropped only when it is empty or equal).
 */
export function fromPanel(body: unknown, options: { numbers?: readonly string[]; aliases?: Readonly<Record<string, string>>; idKeys?: readonly string[] } = {}): unknown {
  if (!isObject(body)) return body;
  const out: Json = {};
  for (const [key, value] of Object.entries(body)) {
    if ((key.endsWith('_id') || options.idKeys?.includes(key)) && typeof value === 'string' && newRecordId.test(value.trim())) continue;
    out[key] = value;
  }
  for (const key of [...(options.numbers ?? []), ...Object.keys(out).filter((k) => k.endsWith('_id'))]) {
    const value = out[key];
    if (typeof value === 'string' && wholeNumberText.test(value.trim())) out[key] = Number(value.trim());
  }
  for (const [alias, name] of Object.entries(options.aliases ?? {})) {
    if (!(alias in out)) continue;
    const value = out[alias];
    delete out[alias];
    const spec = out[name];
    if (spec === undefined || spec === null || spec === '') out[name] = value;
    // Both sent and both set to different things: keep the alias so the strict schema names it.
    else if (value !== null && value !== '' && String(value) !== String(spec)) out[alias] = value;
  }
  for (const key of options.numbers ?? []) {
    const value = out[key];
    if (typeof value === 'string' && wholeNumberText.test(value.trim())) out[key] = Number(value.trim());
  }
  return out;
}

/** The studio's wall time of an instant, as the panel sends and shows it: 'YYYY-MM-DD HH:mm:ss'. */
export function wallTime(iso: string, zone: string): string {
  return studioDayjs(iso, zone).format('YYYY-MM-DD HH:mm:ss');
}

/** 'YYYY-MM-DD HH:mm[:ss]' (or with a T) split into the spec's local date and time, or null when it is not one. */
export function splitWallTime(text: unknown): { date: string; time: string } | null {
  if (typeof text !== 'string') return null;
  const match = text.trim().match(/^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(?::\d{2})?$/);
  return match ? { date: match[1]!, time: match[2]! } : null;
}

/**
 * An instant as the panel shows it: it formats dates with `moment(…).utc()`,
 * so it is sent the studio's wall-clock digits marked as UTC
 * ('2026-11-30T07:00:00.000Z' for a class at 07:00 in Mexico City). Only for
 * the fields the panel reads that way; the true instant goes beside it.
 */
export function wallAsUtc(iso: string, zone: string): string {
  return `${studioDayjs(iso, zone).format('YYYY-MM-DDTHH:mm:ss')}.000Z`;
}

/** A class's coaches as the panel reads them: each row with its coach inside (`class_instructors[i].instructor.nick_name`), the flat fields kept. */
function panelInstructors(list: unknown): Json[] {
  return Array.isArray(list) ? list.map((i) => (isObject(i) ? { ...i, instructor: i } : i)) : [];
}

/**
 * A class as the panel's screens read it: the spec's class with
 * `class_date` as the studio's wall clock marked UTC (`wallAsUtc`; the
 * instant stays as `class_date_utc`), `deletedAt` (it tests
 * `deletedAt !== null` for "Clase Cancelada"), `reservations` (the places
 * taken, which it shows as "taken / capacity") and each coach nested.
 */
export function panelClass(singleClass: Json, zone: string): Json {
  const date = singleClass.class_date;
  if (typeof date !== 'string') return singleClass;
  return {
    ...singleClass,
    class_date: wallAsUtc(date, zone),
    class_date_utc: date,
    deletedAt: singleClass.cancelledAt ?? null,
    // Its delete button sends `class_id` (its own backend's name for the class).
    class_id: singleClass.single_class_id,
    // Its seat maps read class_type.spot_map: the class's own map (its room's, else its type's).
    ...(singleClass.spot_map !== undefined && isObject(singleClass.class_type) ? { class_type: { ...singleClass.class_type, spot_map: singleClass.spot_map } } : {}),
    reservations: singleClass.reservation_count ?? 0,
    class_instructors: panelInstructors(singleClass.class_instructors),
  };
}

/** The class in the panel's edit form, which splits `class_date` at the space: 'YYYY-MM-DD HH:mm:ss' on the studio's wall clock. */
export function panelClassForEdit(singleClass: Json, zone: string): Json {
  const date = singleClass.class_date;
  if (typeof date !== 'string') return singleClass;
  return { ...panelClass(singleClass, zone), class_date: wallTime(date, zone) };
}

/**
 * The places taken in a class, for the panel's week (it tests
 * `capacity - class_reservations.length` for a full class): one entry per
 * place, with its seat when it has one, and nobody's identity (the week is
 * public).
 */
export function takenPlaces(singleClass: { reservation_count: number; taken_spots: readonly number[] }): { spot: number | null }[] {
  return Array.from({ length: singleClass.reservation_count }, (_, i) => ({ spot: singleClass.taken_spots[i] ?? null }));
}

/** Every studio date from `start` to `end` ('YYYY-MM-DD'), both included: the panel's week slices its days by position. */
export function datesBetween(start: string, end: string): string[] {
  const dates: string[] = [];
  const last = Date.parse(`${end}T00:00:00Z`);
  for (let day = Date.parse(`${start}T00:00:00Z`); day <= last && dates.length < 400; day += 86_400_000) dates.push(new Date(day).toISOString().slice(0, 10));
  return dates;
}

/**
 * A class in the panel's week: panelClass with `class_reservations` as the
 * places taken (takenPlaces) instead of the caller's own; the caller's
 * waitlist entry and package access stay last, as in the spec's class.
 */
export function panelWeekClass(singleClass: Json & { reservation_count: number; taken_spots: readonly number[] }, zone: string): Json {
  const { class_reservations: _own, waitlist_id: waitlistId, package_access: access, class_date_utc: utc, ...shown } = panelClass(singleClass, zone);
  return { ...shown, class_reservations: takenPlaces(singleClass), waitlist_id: waitlistId, package_access: access, class_date_utc: utc };
}

/**
 * The week view's envelope: every day of the range in order (empty ones
 * too), each with its classes (panelWeekClass). Cancelled classes are left
 * out: the panel's week has no look for one and would offer it as any other.
 */
export function classesByDay(classes: Json[], zone: string, range: { start_date: string; end_date: string }): { date: string; details: Json[] }[] {
  const days = new Map<string, Json[]>(datesBetween(range.start_date, range.end_date).map((d) => [d, []]));
  for (const item of classes) {
    if (item.cancelledAt !== null && item.cancelledAt !== undefined) continue;
    const shown = panelWeekClass(item as Json & { reservation_count: number; taken_spots: number[] }, zone);
    const day = String(shown.class_date).slice(0, 10);
    days.set(day, [...(days.get(day) ?? []), shown]);
  }
  return [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, details]) => ({ date, details }));
}

/**
 * The panel's class body (`class_date` as wall time, one `instructor_id`,
 * capacity as text) in the spec's terms (`date`, `time`, `instructor_ids`).
 * `is_virtual_class` and `is_special_event` are the product's default when
 * false; true is kept so the strict schema refuses it by name.
 */
export function classFromPanel(body: unknown): unknown {
  const mapped = fromPanel(body, { numbers: ['capacity', 'duration_minutes'], idKeys: ['class_instructor_id'] });
  if (!isObject(mapped)) return mapped;
  const { class_date: classDate, instructor_id: instructorId, is_virtual_class: virtual, is_special_event: special, ...rest } = mapped;
  const out: Json = { ...rest };
  const wall = splitWallTime(classDate);
  if (wall) Object.assign(out, wall);
  else if (classDate !== undefined) out.class_date = classDate;
  if (typeof instructorId === 'number') out.instructor_ids = [instructorId];
  else if (instructorId !== undefined && instructorId !== null) out.instructor_id = instructorId;
  if (virtual !== undefined && virtual !== false) out.is_virtual_class = virtual;
  if (special !== undefined && special !== false) out.is_special_event = special;
  // The panel shows nothing when a class save fails, so a 409 it cannot confirm would read as a dead button: its saves
  // are confirmed, as its own backend took them, and the activity log keeps the confirmation. Only its saves: a
  // wall-time class_date is the panel's (the spec's route takes date and time), and other clients are still asked.
  if (wall && out.allow_overlap === undefined) out.allow_overlap = true;
  return out;
}

/** The multipart field the panel uploads its file in (the spec's `file`). */
export const legacyFileField = 'adjunto';
