import { describe, expect, it } from 'vitest';
import { icsFeed, icsInvitation } from '../../src/messages/ics.ts';

const event = {
  uid: 'reservacion-42@estudio',
  start: new Date('2026-12-01T13:00:00Z'),
  end: new Date('2026-12-01T13:50:00Z'),
  summary: 'Yoga Vinyasa, con Ana',
  description: 'Código de acceso: Y84A3-32BRJ; cancela en https://estudio.mx/mystudio/reservaciones',
  location: 'Av. Álvaro Obregón 120, Roma Norte; Ciudad de México',
};

describe('icsInvitation', () => {
  it('writes one event in UTC with RFC 5545 escaping and CRLF lines', () => {
    const ics = icsInvitation('Estudio Demo', event, new Date('2026-11-24T08:00:00Z'));
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics).toContain('METHOD:PUBLISH');
    expect(ics).toContain('DTSTART:20261201T130000Z');
    expect(ics).toContain('DTEND:20261201T135000Z');
    expect(ics).toContain('DTSTAMP:20261124T080000Z');
    expect(ics).toContain('SUMMARY:Yoga Vinyasa\\, con Ana');
    expect(ics).toContain('STATUS:CONFIRMED');
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.split('\r\n').every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true);
  });

  it('folds long lines without splitting a character, and unfolds back to the text', () => {
    const ics = icsInvitation('Estudio', { ...event, description: 'Ñandú '.repeat(40) }, new Date());
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded).toContain(`DESCRIPTION:${'Ñandú '.repeat(40)}`);
  });
});

describe('icsFeed', () => {
  it('lists every booking, a cancelled one as CANCELLED, without a METHOD', () => {
    const ics = icsFeed('Mis clases', [event, { ...event, uid: 'reservacion-43@estudio', cancelled: true }]);
    expect(ics).not.toContain('METHOD:');
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(ics).toContain('STATUS:CANCELLED');
  });
});
