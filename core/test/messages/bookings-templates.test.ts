import { describe, expect, it } from 'vitest';
import { compose } from '../../src/messages/compose.ts';
import { bookingConfirmation, classWhen, startsIn } from '../../src/messages/templates/bookings.ts';

const brand = { businessName: 'Estudio', logoUrl: null, primary: '#d6336c', publicUrl: 'https://estudio.example', contactEmail: '', contactWhatsapp: '' };

describe('booking templates (issue 17)', () => {
  it("writes the class's date on the studio's clock, not UTC's", () => {
    // 1 January 05:30 UTC is still 31 December 23:30 in Mexico City.
    expect(classWhen(new Date('2029-01-01T05:30:00Z'), 'America/Mexico_City')).toBe('domingo 31 de diciembre, 23:30');
    expect(classWhen(new Date('2029-01-01T05:30:00Z'), 'UTC')).toBe('lunes 1 de enero, 05:30');
  });

  it('says how soon a class starts', () => {
    expect(startsIn(2 * 3_600_000)).toBe('en 2 horas');
    expect(startsIn(3_600_000 + 60_000)).toBe('en 1 hora');
    expect(startsIn(45 * 60_000)).toBe('en 45 minutos');
    expect(startsIn(20_000)).toBe('en 1 minuto');
  });

  it('a confirmation carries the code, how to cancel, the calendar feed, the invitation and the WhatsApp parameters in order', () => {
    const parts = bookingConfirmation({
      name: 'Mariana',
      className: 'Pilates',
      when: 'jueves 26 de noviembre, 07:00',
      coach: '',
      location: 'Roma Norte',
      accessCode: 'K7M2Q-9XHPT',
      reservationsUrl: 'https://estudio.example/mystudio/reservaciones',
      cancelRule: 'Tus clases son transferibles y no son cancelables',
      cancelUntil: null,
      calendarUrl: 'https://estudio.example/api/calendar/abc.ics',
      invitation: { filename: 'reservacion.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' },
    });
    const content = compose(parts, brand);
    expect(content.text).toContain('Código de acceso: K7M2Q-9XHPT');
    expect(content.text).toContain('Tus clases son transferibles y no son cancelables.');
    expect(content.text).toContain('https://estudio.example/api/calendar/abc.ics');
    expect(content.text).not.toContain('Coach:');
    expect(content.attachments?.[0]?.filename).toBe('reservacion.ics');
    expect(content.whatsapp?.template).toBe('estudio_confirmacion');
    expect(content.whatsapp?.parameters).toEqual(['Mariana', 'Pilates', 'jueves 26 de noviembre, 07:00', '—', 'Roma Norte', 'K7M2Q-9XHPT', 'https://estudio.example/mystudio/reservaciones']);
  });
});
