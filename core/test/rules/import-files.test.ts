import { describe, expect, it } from 'vitest';
import {
  parseCsv,
  parseImportDate,
  parseImportTime,
  readBookingRow,
  readCreditRow,
  readCustomerRow,
  recognizeBookingColumns,
  recognizeCreditColumns,
  recognizeCustomerColumns,
} from '../../src/rules/import-files.ts';

describe('a CSV as other systems and Excel write it', () => {
  it('drops the BOM, reads quotes with commas, doubled quotes and line breaks, and CRLF', () => {
    const text = '\uFEFFNombre,Notas\r\n"Pérez, Ana","Dijo ""hola""\r\nen dos líneas"\r\nLuis,\r\n\r\n';
    expect(parseCsv(text)).toEqual([
      ['Nombre', 'Notas'],
      ['Pérez, Ana', 'Dijo "hola"\r\nen dos líneas'],
      ['Luis', ''],
    ]);
  });

  it('reads the semicolons of Excel in Spanish and the tabs of a pasted sheet', () => {
    expect(parseCsv('Nombre;Correo\nAna;ana@correo.mx\n')).toEqual([
      ['Nombre', 'Correo'],
      ['Ana', 'ana@correo.mx'],
    ]);
    expect(parseCsv('Nombre\tCorreo\nAna\tana@correo.mx')).toEqual([
      ['Nombre', 'Correo'],
      ['Ana', 'ana@correo.mx'],
    ]);
  });
});

describe('the columns by their usual names', () => {
  it('recognises Spanish, Mindbody and Glofox headers in any order, accents and case aside', () => {
    expect(recognizeCustomerColumns(['Correo electrónico', 'APELLIDOS', 'Nombre', 'Teléfono', 'Fecha de nacimiento'])).toEqual({
      email: 0,
      last_name: 1,
      name: 2,
      phone: 3,
      birthdate: 4,
    });
    expect(recognizeCustomerColumns(['Client First Name', 'Client Last Name', 'Email Address', 'Mobile Phone', 'Birthday', 'Notes'])).toEqual({
      name: 0,
      last_name: 1,
      email: 2,
      phone: 3,
      birthdate: 4,
      notes: 5,
    });
    expect(recognizeCustomerColumns(['Full Name', 'Email', 'Phone Number'])).toEqual({ full_name: 0, email: 1, phone: 2 });
    expect(recognizeCustomerColumns(['Columna X'])).toEqual({});
  });
});

describe('dates as exports write them', () => {
  it('reads ISO, Mexico’s day first, a month first only when it must be, two-digit years and Excel’s serial days', () => {
    expect(parseImportDate('1994-05-12')).toBe('1994-05-12');
    expect(parseImportDate('1994-05-12 00:00:00')).toBe('1994-05-12');
    expect(parseImportDate('12/05/1994')).toBe('1994-05-12');
    expect(parseImportDate('12-05-94')).toBe('1994-05-12');
    expect(parseImportDate('05/25/1994')).toBe('1994-05-25');
    expect(parseImportDate('3/1/05')).toBe('2005-01-03');
    expect(parseImportDate('34466')).toBe('1994-05-12');
    expect(parseImportDate('31/02/1994')).toBeNull();
    expect(parseImportDate('mayo 1994')).toBeNull();
    expect(parseImportDate('')).toBeNull();
  });
});

describe('a customer row', () => {
  const columns = { name: 0, last_name: 1, email: 2, phone: 3, birthdate: 4, notes: 5 };

  it('makes the customer: e-mail lower case, Mexico’s phone as its 10 digits, the birth date as a day', () => {
    expect(readCustomerRow(['  Ana Sofía ', 'Ramírez López', 'ANA@Correo.MX', '+52 (55) 1234-5678', '12/05/1994', 'Rodilla'], columns)).toEqual({
      ok: true,
      customer: { name: 'Ana Sofía', last_name: 'Ramírez López', email: 'ana@correo.mx', phone: '5512345678', birthdate: '1994-05-12', notes: 'Rodilla' },
    });
  });

  it('splits a full name into the name and the surnames', () => {
    expect(readCustomerRow(['Ana Ramírez López', 'ana@correo.mx'], { full_name: 0, email: 1 })).toMatchObject({ ok: true, customer: { name: 'Ana', last_name: 'Ramírez López' } });
  });

  it('gives every reason a row is refused, in Spanish, naming the value', () => {
    expect(readCustomerRow(['', 'Ramírez', 'ana@', '123', '31/02/1994', ''], columns)).toEqual({
      ok: false,
      reasons: [
        'Falta el nombre.',
        'El correo «ana@» no es válido.',
        'El teléfono «123» no es un número de 10 dígitos de México.',
        'La fecha de nacimiento «31/02/1994» no es una fecha que entendamos (usa DD/MM/AAAA).',
      ],
    });
    expect(readCustomerRow(['Ana', 'Ramírez', '', '', '', ''], columns)).toEqual({ ok: false, reasons: ['Falta un correo o un teléfono para reconocerla.'] });
  });
});

describe('credits and bookings files (decision 127)', () => {
  const today = '2026-12-04';
  it('recognises the platforms’ columns for balances and bookings', () => {
    expect(recognizeCreditColumns(['Client Email', 'Mobile Phone', 'Remaining', 'Expiration Date', 'Service Category', 'Pricing Option'])).toEqual({
      email: 0,
      phone: 1,
      credits: 2,
      expires: 3,
      class_type: 4,
      package: 5,
    });
    expect(recognizeBookingColumns(['Correo', 'Fecha', 'Hora', 'Disciplina', 'Sucursal'])).toEqual({ email: 0, date: 1, time: 2, class_type: 3, location: 4 });
  });

  it('reads a balance: a number or «ilimitado» (with its end), refuses what ran out or is not a number', () => {
    const columns = { email: 0, credits: 1, expires: 2, class_type: 3 };
    expect(readCreditRow(['ana@correo.mx', '5', '31/12/2026', 'Barre'], columns, today)).toEqual({
      ok: true,
      credit: { email: 'ana@correo.mx', phone: null, credits: 5, expires: '2026-12-31', class_type: 'Barre', package: null },
    });
    // Excel's serial day 46387 is 31 December 2026.
    expect(readCreditRow(['ana@correo.mx', 'Ilimitada', '46387', ''], columns, today)).toMatchObject({ ok: true, credit: { credits: -1, expires: '2026-12-31' } });
    const ana = { email: 'ana@correo.mx', phone: null };
    expect(readCreditRow(['ana@correo.mx', 'ilimitado', '', ''], columns, today)).toEqual({ ok: false, reasons: ['Una membresía ilimitada necesita su fecha de fin.'], contact: ana });
    expect(readCreditRow(['ana@correo.mx', '3', '30/11/2026', ''], columns, today)).toEqual({ ok: false, reasons: ['Ya venció el 30/11/2026.'], contact: ana });
    expect(readCreditRow(['', 'tres', '', ''], columns, today)).toEqual({
      ok: false,
      reasons: ['Falta el correo o el teléfono del cliente.', '«tres» no es un número de clases (escribe un número o «ilimitado»).'],
      contact: { email: null, phone: null },
    });
  });

  it('reads a start time as exports write it', () => {
    expect(['07:00', '7:00', '7:00 AM', '7 pm', '7:30 p.m.', '19:00:00', '12:15 AM'].map(parseImportTime)).toEqual(['07:00', '07:00', '07:00', '19:00', '19:30', '19:00', '00:15']);
    expect(['25:00', '7', '13 PM', 'mañana'].map(parseImportTime)).toEqual([null, null, null, null]);
  });

  it('reads a booking, with the time in its own column or after the date, and refuses a past one', () => {
    const columns = { phone: 0, date: 1, time: 2, class_type: 3 };
    expect(readBookingRow(['55 1234 5678', '12/12/2026', '7:00 PM', 'Yoga'], columns, today)).toEqual({
      ok: true,
      booking: { email: null, phone: '5512345678', date: '2026-12-12', time: '19:00', class_type: 'Yoga', location: null, spot: null, expires: null },
    });
    expect(readBookingRow(['5512345678', '2026-12-12 07:00', '', 'Yoga'], columns, today)).toMatchObject({ ok: true, booking: { date: '2026-12-12', time: '07:00' } });
    expect(readBookingRow(['5512345678', '01/12/2026', '07:00', ''], columns, today)).toEqual({
      ok: false,
      reasons: ['La clase del 01/12/2026 ya pasó.', 'Falta el tipo de clase.'],
      contact: { email: null, phone: '5512345678' },
    });
  });

  it("reads a booking's seat, as a bike or a bed is numbered, and recognises its column", () => {
    expect(recognizeBookingColumns(['Email', 'Fecha', 'Hora', 'Clase', 'Bici'])).toMatchObject({ spot: 4 });
    expect(recognizeBookingColumns(['Email', 'Date', 'Time', 'Class', 'Spot Number'])).toMatchObject({ spot: 4 });
    const columns = { phone: 0, date: 1, time: 2, class_type: 3, spot: 4 };
    expect(readBookingRow(['5512345678', '12/12/2026', '07:00', 'Indoor', ' 12 '], columns, today)).toMatchObject({ ok: true, booking: { spot: 12 } });
    expect(readBookingRow(['5512345678', '12/12/2026', '07:00', 'Indoor', ''], columns, today)).toMatchObject({ ok: true, booking: { spot: null } });
    for (const bad of ['0', 'B3', '2.5']) expect(readBookingRow(['5512345678', '12/12/2026', '07:00', 'Indoor', bad], columns, today)).toMatchObject({ ok: false, reasons: [`El lugar «${bad}» no es un número de lugar (1, 2, 3…).`] });
  });
});
