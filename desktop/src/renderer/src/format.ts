import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { defaultStudioTimeZone, purchaseStatusKey, readFieldRefusal, texts } from '@estudio/core';

dayjs.extend(utc);
dayjs.extend(timezone);

const t = texts.desk;

let zone = defaultStudioTimeZone;
/**
 * The studio's time zone every screen's times read (core's studioTimeZone over
 * the replica's settings, sent with the session). The desk shows one studio,
 * so it is set once per session answer, before the screens mount (App).
 */
export function setStudioZone(tz: string): void {
  zone = tz;
}
export const studioZone = (): string => zone;

/**
 * The studio zone's offset from UTC at an instant, in minutes. dayjs's own
 * `.tz()` builds a new Intl formatter and parses a date string on every
 * call; a verdict's new times paid that on every scan. One formatter per zone
 * is kept and read in parts.
 */
const zoneFormatters = new Map<string, Intl.DateTimeFormat>();
function zoneOffsetMinutes(ms: number, tz: string): number {
  let formatter = zoneFormatters.get(tz);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    zoneFormatters.set(tz, formatter);
  }
  const wall: Record<string, number> = {};
  for (const { type, value } of formatter.formatToParts(ms)) if (type !== 'literal') wall[type] = Number(value);
  const wallAsUtc = Date.UTC(wall.year!, wall.month! - 1, wall.day!, wall.hour!, wall.minute!, wall.second!);
  return Math.round((wallAsUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** Times are the studio's wall clock, whatever the zone of the desk's computer. */
const local = (iso: string) => {
  const instant = dayjs(iso);
  return instant.utcOffset(zoneOffsetMinutes(instant.valueOf(), zone));
};

/**
 * The same instants are drawn again on every redraw (a class's hour on each
 * roster, the check-in time in each row's menu), and converting one to a
 * zone costs dayjs a fresh Intl formatter: a scan's redraw spent more time in
 * it than in anything else. Each text is computed once per zone.
 */
const formatted = new Map<string, string>();
const FORMATTED_MAX = 5_000;
function inStudioZone(iso: string, pattern: string): string {
  const key = `${dayjs.locale()}\u0000${zone}\u0000${pattern}\u0000${iso}`;
  let text = formatted.get(key);
  if (text === undefined) {
    if (formatted.size >= FORMATTED_MAX) formatted.clear();
    text = local(iso).format(pattern);
    formatted.set(key, text);
  }
  return text;
}

export const timeOf = (iso: string) => inStudioZone(iso, 'HH:mm');
export const dayOf = (iso: string) => inStudioZone(iso, 'dddd D [de] MMMM');
export const dateTimeOf = (iso: string) => inStudioZone(iso, 'ddd D MMM YYYY, HH:mm');
export const dateOf = (iso: string) => inStudioZone(iso, 'D MMM YYYY');
/** A studio day (YYYY-MM-DD) as '8 dic 2026': noon in Mexico City is that day whatever the computer's zone. */
export const studioDayOf = (day: string) => dateOf(`${day}T18:00:00Z`);

/**
 * A date-time picker's value (the wall clock 'YYYY-MM-DD HH:mm:ss' Mantine's
 * DateTimePicker reads and writes) for an instant, on the studio's clock:
 * an owner at a computer set to another zone still sees the studio's hour.
 */
export const studioWallTime = (iso: string): string => local(iso).format('YYYY-MM-DD HH:mm:ss');

/**
 * The instant a picked wall-clock time means in the studio's zone, written
 * with the studio's offset ('2026-12-01 09:30:00' → '2026-12-01T09:30:00-06:00'),
 * so the hour typed is the hour the server stores whatever the computer's zone.
 */
export const instantAtStudioWallTime = (wall: string): string => dayjs.tz(wall, zone).format('YYYY-MM-DDTHH:mm:ssZ');

/** 'sábado 21 de noviembre' → 'Sábado 21 de noviembre' (Spanish capitalises only the first word). */
export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const pendingText = (n: number) => (n === 1 ? t.pendingOne : t.pendingMany.replace('{n}', String(n)));

export const purchaseStatusText: Record<string, string> = {
  active: t.statusActive,
  completed: t.statusCompleted,
  pending: t.statusPending,
  failed: t.statusFailed,
  cancelled: t.statusCancelled,
  revoked: t.statusRevoked,
  refunded: texts.adminMoney.refunded,
};

/** A purchase's status in staff's words: one whose money went back reads 'Reembolsada', not 'Eliminada'. */
export const purchaseStatusOf = (p: Parameters<typeof purchaseStatusKey>[0]): string => purchaseStatusText[purchaseStatusKey(p)] ?? p.status;

/** '$1,250.00' from the server's numeric string, without a float. */
export function money(amount: string): string {
  const [whole = '0', cents = '00'] = amount.split('.');
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents.padEnd(2, '0').slice(0, 2)}`;
}

/**
 * A tRPC error's Spanish message (the desk router sends DomainError messages).
 * A validation refusal names its field by key for API clients ('Revisa el
 * campo phone: …'); staff read the field's label instead ('Teléfono: …').
 */
export function errorText(error: unknown): string {
  if (!(error instanceof Error) || !error.message) return 'Algo salió mal. Inténtalo de nuevo.';
  const field = (error as { data?: { field?: unknown } }).data?.field;
  return typeof field === 'string' && field ? readFieldRefusal(error.message, field).alone : error.message;
}

/** The catalogue's code of a refusal the desk's service sent ('booking/no-credits'), or null. */
export function errorCode(error: unknown): string | null {
  const code = (error as { data?: { domainCode?: unknown } } | null)?.data?.domainCode;
  return typeof code === 'string' ? code : null;
}

/** The message for under a field the server named: without the key or the label ('Escribe el teléfono del cliente.'). */
export function fieldErrorText(error: unknown, field: string): string {
  return readFieldRefusal(error instanceof Error ? error.message : '', field).own || errorText(error);
}
