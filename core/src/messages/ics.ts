/**
 * iCalendar (RFC 5545) for bookings: the invitation attached to a
 * booking confirmation and each customer's private calendar feed. Times are
 * written in UTC (…Z), which every calendar shows in the reader's zone.
 */
export interface CalendarEvent {
  /** Stable across updates: the same booking replaces its event instead of adding one. */
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description?: string;
  location?: string;
  url?: string;
  /** A cancelled booking keeps its UID and says so, so calendars remove it. */
  cancelled?: boolean;
  /** Increases with every change of the event (the reservation's updatedAt in seconds works). */
  sequence?: number;
}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** TEXT value escaping of RFC 5545 §3.3.11. */
const escapeText = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Octets of one code point in UTF-8 (counted, not encoded: a feed folds tens of thousands of characters). */
const utf8Length = (ch: string) => {
  const cp = ch.codePointAt(0) as number;
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
};

/** Lines longer than 75 octets are folded (§3.1), without splitting a UTF-8 character. */
const utf8 = new TextEncoder();
function fold(line: string): string {
  if (utf8.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const n = utf8Length(ch);
    const limit = parts.length === 0 ? 75 : 74;
    if (size + n > limit) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

function eventLines(e: CalendarEvent, now: Date): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `DTSTAMP:${stamp(now)}`,
    `DTSTART:${stamp(e.start)}`,
    `DTEND:${stamp(e.end)}`,
    `SEQUENCE:${e.sequence ?? 0}`,
    `SUMMARY:${escapeText(e.summary)}`,
    ...(e.description ? [`DESCRIPTION:${escapeText(e.description)}`] : []),
    ...(e.location ? [`LOCATION:${escapeText(e.location)}`] : []),
    ...(e.url ? [`URL:${e.url}`] : []),
    `STATUS:${e.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
  ];
}

function calendar(method: string | null, name: string, events: CalendarEvent[], now: Date): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Estudio//Reservaciones//ES',
    'CALSCALE:GREGORIAN',
    ...(method ? [`METHOD:${method}`] : []),
    `X-WR-CALNAME:${escapeText(name)}`,
    ...events.flatMap((e) => eventLines(e, now)),
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/** One booking as an invitation file (attached to the confirmation e-mail as invitacion.ics). */
export function icsInvitation(calendarName: string, event: CalendarEvent, now: Date = new Date()): string {
  return calendar('PUBLISH', calendarName, [event], now);
}

/** A customer's bookings as a subscribable feed (Google Calendar, Apple Calendar). */
export function icsFeed(calendarName: string, events: CalendarEvent[], now: Date = new Date()): string {
  return calendar(null, calendarName, events, now);
}
