import { describe, expect, it } from 'vitest';
import { compose } from '../../src/messages/compose.ts';
import { bookingCancelled, bookingConfirmation, classWhen, startsIn } from '../../src/messages/templates/bookings.ts';
import { welcome } from '../../src/messages/templates/account.ts';
import { purchasePending } from '../../src/messages/templates/billing.ts';

const brand = { businessName: 'Estudio', logoUrl: null, primary: '#d6336c', publicUrl: 'https://estudio.example', contactEmail: '', contactWhatsapp: '' };

describe('booking templates', () => {
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
      spot: null,
      guest: null,
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

  const booked = {
    name: 'Mariana',
    className: 'Indoor Cycling',
    when: 'domingo 29 de noviembre, 10:00',
    coach: 'Rodri',
    location: 'Sala Norte · Av. Reforma 123',
    spot: 7,
    guest: { name: 'Ana', spot: 8 },
    accessCode: 'K7M2Q-9XHPT',
    reservationsUrl: 'https://estudio.example/mystudio/reservaciones',
    cancelRule: 'Solo puedes cancelar clases con 12 horas de anticipacion',
    calendarUrl: 'https://estudio.example/api/calendar/abc.ics',
    invitation: { filename: 'reservacion.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' },
  };

  it("names the seat as 'Tu lugar', the guest and the guest's seat, and the studio as 'Estudio' ('Lugar' was the address)", () => {
    const content = compose(bookingConfirmation({ ...booked, cancelUntil: 'sábado 28 de noviembre, 22:00' }), brand);
    expect(content.text).toContain('Estudio: Sala Norte · Av. Reforma 123');
    expect(content.text).toContain('Tu lugar: 7');
    expect(content.text).toContain('Tu invitado: Ana, lugar 8');
    expect(content.text).not.toMatch(/^Lugar: /m);
    expect(content.text).toContain('cancela desde Mis Reservaciones a más tardar el sábado 28 de noviembre, 22:00.');
    // The registered template keeps its 7 parameters: the seats travel in the location's.
    expect(content.whatsapp?.parameters[4]).toBe('Sala Norte · Av. Reforma 123 · Lugar 7 · invitado: Ana (lugar 8)');
    expect(content.whatsapp?.parameters).toHaveLength(7);
  });

  it('a class booked inside the cancellation notice gives no deadline already past: it says the credit no longer comes back', () => {
    const content = compose(bookingConfirmation({ ...booked, cancelUntil: 'late' }), brand);
    expect(content.text).not.toContain('a más tardar');
    expect(content.text).toContain('Esta clase ya no se puede cancelar con devolución del crédito');
  });

  it('a cancellation says what happened to the credit and offers another class', () => {
    const back = compose(bookingCancelled({ name: 'Mariana', className: 'Yoga', when: 'lunes 7 de diciembre, 07:00', creditReturned: true, byStudio: false, scheduleUrl: 'https://estudio.example/mystudio' }), brand);
    expect(back.subject).toBe('Reservación cancelada: Yoga, lunes 7 de diciembre, 07:00');
    expect(back.text).toContain('Tu crédito regresó a tu cuenta');
    expect(back.text).toContain('Reservar otra clase: https://estudio.example/mystudio');
    const lost = compose(bookingCancelled({ name: 'Mariana', className: 'Yoga', when: 'lunes 7 de diciembre, 07:00', creditReturned: false, byStudio: true, scheduleUrl: 'x' }), brand);
    expect(lost.text).toContain('El estudio canceló tu reservación');
    expect(lost.text).toContain('El crédito no regresó');
  });

  it('a pending cash order gives the transfer details and the deadline; the welcome says what to do next', () => {
    const pending = compose(
      purchasePending({
        name: 'Mariana',
        purchaseId: 42,
        title: '10 clases',
        total: '1500.00',
        bank: { name: 'BBVA', clabe: '012 180 00123456789 9', beneficiary: 'Estudio Demo SA de CV' },
        reference: 'Orden 0042',
        payBy: '05 dic 2026 10:00',
        orderUrl: 'https://estudio.example/gracias/42',
      }),
      brand,
    );
    expect(pending.text).toContain('CLABE: 012 180 00123456789 9');
    expect(pending.text).toContain('Referencia (concepto): Orden 0042');
    expect(pending.text).toContain('Paga antes del: 05 dic 2026 10:00');
    expect(pending.text).toContain('Total a pagar: $1,500.00 MXN');
    const hello = compose(welcome({ name: 'Sofía', businessName: 'Estudio', calendarUrl: 'c', packagesUrl: 'p', packagesName: 'Paquetes', hasCredits: false }), brand);
    expect(hello.subject).toBe('Te damos la bienvenida a Estudio');
    expect(hello.text).toContain('Ver Paquetes: p');
  });
});
