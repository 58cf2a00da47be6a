import { normalizePhone } from '../phone.ts';

/**
 * Reading the CSV files another system exports (Mindbody, Glofox, a spreadsheet), for bringing a studio's customers
 * over (decision 125): the text as Excel and those systems write it, the columns by their usual names, and each
 * value checked with a reason in Spanish. Pure: the import's dry run and its real run read files through these.
 */

/** The rows of a CSV text: a byte-order mark dropped, the delimiter guessed (',', ';' or tab), RFC 4180 quotes. */
export function parseCsv(text: string): string[][] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const delimiter = guessDelimiter(body);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === delimiter) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  // Blank lines (a trailing one, or Excel's empty rows) are not records.
  return rows.filter((r) => r.some((value) => value.trim() !== ''));
}

/** The delimiter of the first line, outside quotes: Excel in Spanish writes ';', most systems ','. */
function guessDelimiter(text: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && counts.has(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ',';
}

/** A header as compared: lower case, no accents, words separated by one space. */
export function foldHeader(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export const customerImportFields = ['name', 'last_name', 'full_name', 'email', 'phone', 'birthdate', 'notes'] as const;
export type CustomerImportField = (typeof customerImportFields)[number];

/** The names each field goes by in the big platforms' exports and in Spanish spreadsheets, folded. */
const customerColumnNames: Record<CustomerImportField, readonly string[]> = {
  name: ['nombre', 'nombres', 'first name', 'firstname', 'client first name', 'given name'],
  last_name: ['apellido', 'apellidos', 'last name', 'lastname', 'surname', 'client last name', 'family name'],
  full_name: ['nombre completo', 'full name', 'client name', 'client', 'cliente', 'name', 'member name'],
  email: ['email', 'e mail', 'correo', 'correo electronico', 'email address', 'client email', 'mail'],
  phone: ['telefono', 'tel', 'celular', 'movil', 'whatsapp', 'phone', 'mobile', 'mobile phone', 'cell phone', 'home phone', 'phone number', 'client phone'],
  birthdate: ['fecha de nacimiento', 'nacimiento', 'cumpleanos', 'birthdate', 'birthday', 'birth date', 'date of birth', 'dob'],
  notes: ['notas', 'nota', 'notes', 'comments', 'comentarios', 'observaciones'],
};

/** Which column holds each field, by the header's usual names; a field nobody's header names is left for the person to map. */
function recognizeColumns<F extends string>(header: readonly string[], fields: readonly F[], names: Record<F, readonly string[]>): Partial<Record<F, number>> {
  const folded = header.map(foldHeader);
  const found: Partial<Record<F, number>> = {};
  for (const field of fields) {
    const index = folded.findIndex((h, i) => names[field].includes(h) && !Object.values(found).includes(i));
    if (index >= 0) found[field] = index;
  }
  return found;
}

export function recognizeCustomerColumns(header: readonly string[]): Partial<Record<CustomerImportField, number>> {
  return recognizeColumns(header, customerImportFields, customerColumnNames);
}

/** A credits file: one line per balance of classes (or running unlimited membership) a customer has left (decision 127). */
export const creditImportFields = ['email', 'phone', 'credits', 'expires', 'class_type', 'package'] as const;
export type CreditImportField = (typeof creditImportFields)[number];

const expiresNames = ['vence', 'vencimiento', 'fecha de vencimiento', 'vigencia', 'vigente hasta', 'expira', 'caducidad', 'fecha de fin', 'fin', 'expiration', 'expiration date', 'expires', 'expiry', 'expiry date', 'end date', 'valid until'];
const classTypeNames = ['tipo de clase', 'disciplina', 'clase', 'class type', 'class', 'service category', 'program', 'programa', 'category', 'categoria'];

const creditColumnNames: Record<CreditImportField, readonly string[]> = {
  email: customerColumnNames.email,
  phone: customerColumnNames.phone,
  credits: ['creditos', 'clases', 'clases restantes', 'clases disponibles', 'saldo', 'saldo de clases', 'credits', 'remaining', 'remaining classes', 'classes remaining', 'sessions remaining', 'remaining sessions', 'visits remaining', 'remaining visits', 'remaining credits', 'credits remaining'],
  expires: expiresNames,
  class_type: classTypeNames,
  package: ['paquete', 'membresia', 'plan', 'package', 'pricing option', 'membership', 'membership name', 'series', 'producto'],
};

export function recognizeCreditColumns(header: readonly string[]): Partial<Record<CreditImportField, number>> {
  return recognizeColumns(header, creditImportFields, creditColumnNames);
}

/** A bookings file: one line per class a customer has booked from today on. */
export const bookingImportFields = ['email', 'phone', 'date', 'time', 'class_type', 'location', 'spot', 'expires'] as const;
export type BookingImportField = (typeof bookingImportFields)[number];

const bookingColumnNames: Record<BookingImportField, readonly string[]> = {
  email: customerColumnNames.email,
  phone: customerColumnNames.phone,
  date: ['fecha', 'fecha de la clase', 'dia', 'date', 'class date', 'visit date', 'start date', 'fecha y hora', 'date time', 'start'],
  time: ['hora', 'hora de inicio', 'horario', 'inicio', 'time', 'start time', 'class time'],
  class_type: classTypeNames,
  location: ['sucursal', 'ubicacion', 'sede', 'location', 'studio', 'estudio', 'site'],
  spot: ['lugar', 'asiento', 'bici', 'bicicleta', 'cama', 'reformer', 'numero de lugar', 'spot', 'seat', 'bike', 'spot number', 'seat number'],
  expires: ['vence el credito', 'vencimiento del credito', 'credit expiration', ...expiresNames],
};

export function recognizeBookingColumns(header: readonly string[]): Partial<Record<BookingImportField, number>> {
  return recognizeColumns(header, bookingImportFields, bookingColumnNames);
}

const isoDay = (y: number, m: number, d: number): string | null => {
  const at = new Date(Date.UTC(y, m - 1, d));
  if (at.getUTCFullYear() !== y || at.getUTCMonth() !== m - 1 || at.getUTCDate() !== d) return null;
  return at.toISOString().slice(0, 10);
};

/**
 * A calendar day as the exports write it, as 'YYYY-MM-DD', or null: ISO ('1994-05-12', with a time after it),
 * Mexico's day first ('12/05/1994', '12-05-94', '12.05.1994'), a month first only when the day cannot be the first
 * number ('05/25/1994'), and Excel's serial day number ('34466', counted from 30 December 1899).
 */
export function parseImportDate(value: string): string | null {
  const text = value.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T].*)?$/.exec(text);
  if (m) return isoDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:[ T].*)?$/.exec(text);
  if (m) {
    const [first, second] = [Number(m[1]), Number(m[2])];
    let year = Number(m[3]);
    // Two digits: a birth year or a date of the last century, unless that would be in the future.
    if (m[3]?.length === 2) year += year + 2000 > new Date().getUTCFullYear() ? 1900 : 2000;
    return second > 12 && first <= 12 ? isoDay(year, first, second) : isoDay(year, second, first);
  }
  if (/^\d{4,5}(\.\d+)?$/.test(text)) {
    const serial = Math.floor(Number(text));
    // Excel's day 60 is a 29 February 1900 that never was; real exports are long past it.
    if (serial < 61) return null;
    return new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000).toISOString().slice(0, 10);
  }
  return null;
}

export interface ImportedCustomer {
  name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  birthdate: string | null;
  notes: string | null;
}

/** A row read: the customer it makes, or the reasons it cannot, each in Spanish naming the column's value. */
export type CustomerRowResult = { ok: true; customer: ImportedCustomer } | { ok: false; reasons: string[] };

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One row of a customers file, with its columns recognised (or mapped by hand): checked and made ready to import. */
export function readCustomerRow(row: readonly string[], columns: Partial<Record<CustomerImportField, number>>): CustomerRowResult {
  const at = (field: CustomerImportField) => (columns[field] === undefined ? '' : (row[columns[field]] ?? '').trim());
  const reasons: string[] = [];
  let name = at('name');
  let lastName = at('last_name');
  if (!name && !lastName && at('full_name')) {
    // 'Ana Sofía Ramírez López': the first word is the name, the rest the surnames (Mexico's two surnames).
    const [first = '', ...rest] = at('full_name').split(/\s+/);
    name = first;
    lastName = rest.join(' ');
  }
  if (!name) reasons.push('Falta el nombre.');
  const emailText = at('email').toLowerCase();
  const email = emailText || null;
  if (email && !emailPattern.test(email)) reasons.push(`El correo «${at('email')}» no es válido.`);
  const phoneText = at('phone');
  let phone: string | null = null;
  if (phoneText) {
    const digits = normalizePhone(phoneText);
    if (/^\d{10}$/.test(digits)) phone = digits;
    else reasons.push(`El teléfono «${phoneText}» no es un número de 10 dígitos de México.`);
  }
  if (!email && !phone) reasons.push('Falta un correo o un teléfono para reconocerla.');
  const birthText = at('birthdate');
  let birthdate: string | null = null;
  if (birthText) {
    birthdate = parseImportDate(birthText);
    if (!birthdate) reasons.push(`La fecha de nacimiento «${birthText}» no es una fecha que entendamos (usa DD/MM/AAAA).`);
  }
  if (reasons.length) return { ok: false, reasons };
  return { ok: true, customer: { name, last_name: lastName, email, phone, birthdate, notes: at('notes') || null } };
}

/** Who a credits or bookings line is about: the customer's e-mail or phone, as a customers file gives them. */
export interface ImportContact {
  email: string | null;
  phone: string | null;
}

function readContact(at: (field: 'email' | 'phone') => string, reasons: string[]): ImportContact {
  const emailText = at('email').toLowerCase();
  const email = emailText || null;
  if (email && !emailPattern.test(email)) reasons.push(`El correo «${at('email')}» no es válido.`);
  let phone: string | null = null;
  if (at('phone')) {
    const digits = normalizePhone(at('phone'));
    if (/^\d{10}$/.test(digits)) phone = digits;
    else reasons.push(`El teléfono «${at('phone')}» no es un número de 10 dígitos de México.`);
  }
  if (!email && !phone) reasons.push('Falta el correo o el teléfono del cliente.');
  return { email, phone };
}

/** 'DD/MM/AAAA', as the reasons quote a day. */
export const importDayText = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

export interface ImportedCredit extends ImportContact {
  /** Classes left; -1 is an unlimited membership; null when only the package says (an unlimited one). */
  credits: number | null;
  /** The last day it can be used, 'YYYY-MM-DD' on the studio's calendar. */
  expires: string | null;
  class_type: string | null;
  package: string | null;
}

export type CreditRowResult = { ok: true; credit: ImportedCredit } | { ok: false; reasons: string[]; contact: ImportContact };

const unlimitedWords = new Set(['ilimitado', 'ilimitada', 'ilimitadas', 'ilimitados', 'unlimited', 'sin limite', 'infinito']);

/**
 * One line of a credits file: whose (e-mail, then phone), how many classes are left ('ilimitado' for a running
 * membership, which needs its end date), until when, and for which class type or package. `today` is the studio's
 * date: a balance that already ran out brings nothing over.
 */
export function readCreditRow(row: readonly string[], columns: Partial<Record<CreditImportField, number>>, today: string): CreditRowResult {
  const at = (field: CreditImportField) => (columns[field] === undefined ? '' : (row[columns[field]] ?? '').trim());
  const reasons: string[] = [];
  const contact = readContact(at, reasons);
  const creditsText = at('credits');
  let credits: number | null = null;
  if (unlimitedWords.has(foldHeader(creditsText)) || creditsText === '-1') credits = -1;
  else if (/^\d+([.,]0+)?$/.test(creditsText)) {
    credits = Number.parseInt(creditsText, 10);
    if (credits === 0) reasons.push('No le quedan clases: no hay nada que traer.');
    else if (credits > 1000) reasons.push(`«${creditsText}» clases no parece un saldo real.`);
  } else if (creditsText) reasons.push(`«${creditsText}» no es un número de clases (escribe un número o «ilimitado»).`);
  else if (!at('package')) reasons.push('Falta el número de clases que le quedan.');
  const expiresText = at('expires');
  let expires: string | null = null;
  if (expiresText) {
    expires = parseImportDate(expiresText);
    if (!expires) reasons.push(`La fecha de vencimiento «${expiresText}» no es una fecha que entendamos (usa DD/MM/AAAA).`);
    else if (expires < today) reasons.push(`Ya venció el ${importDayText(expires)}.`);
  } else if (credits === -1) reasons.push('Una membresía ilimitada necesita su fecha de fin.');
  if (reasons.length) return { ok: false, reasons, contact };
  return { ok: true, credit: { ...contact, credits, expires, class_type: at('class_type') || null, package: at('package') || null } };
}

/** 'HH:mm' from how exports write a start time: '07:00', '7:00', '7:00 AM', '7 pm', '19:00:00'; or null. */
export function parseImportTime(value: string): string | null {
  const m = /^(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*([ap])?\.?\s*m?\.?$/i.exec(value.trim());
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? '0');
  const half = m[3]?.toLowerCase();
  if (!m[2] && !half) return null;
  if (half) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half === 'p' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

export interface ImportedBooking extends ImportContact {
  /** The class's day and start on the studio's clock. */
  date: string;
  time: string;
  class_type: string;
  location: string | null;
  /** Her place in a class with a seat map (a bike, a reformer), as the other system numbered it; null: none chosen. */
  spot: number | null;
  /** Until when the credit is good if she cancels in time; null: the import's default. */
  expires: string | null;
}

export type BookingRowResult = { ok: true; booking: ImportedBooking } | { ok: false; reasons: string[]; contact: ImportContact };

/** One line of a bookings file: whose, which class (day, start, class type, and location when the studio has several), and her place in it if it has one. */
export function readBookingRow(row: readonly string[], columns: Partial<Record<BookingImportField, number>>, today: string): BookingRowResult {
  const at = (field: BookingImportField) => (columns[field] === undefined ? '' : (row[columns[field]] ?? '').trim());
  const reasons: string[] = [];
  const contact = readContact(at, reasons);
  const dateText = at('date');
  const date = dateText ? parseImportDate(dateText) : null;
  if (!dateText) reasons.push('Falta la fecha de la clase.');
  else if (!date) reasons.push(`La fecha «${dateText}» no es una fecha que entendamos (usa DD/MM/AAAA).`);
  else if (date < today) reasons.push(`La clase del ${importDayText(date)} ya pasó.`);
  // The start time in its own column, or after the date in the same one ('12/12/2026 07:00').
  const timeText = at('time') || (/[ T](\d{1,2}:\d{2}.*)$/.exec(dateText)?.[1] ?? '');
  const time = timeText ? parseImportTime(timeText) : null;
  if (!timeText) reasons.push('Falta la hora de la clase.');
  else if (!time) reasons.push(`La hora «${timeText}» no es una hora que entendamos (usa 07:00 o 7:00 PM).`);
  const classType = at('class_type');
  if (!classType) reasons.push('Falta el tipo de clase.');
  const expiresText = at('expires');
  const expires = expiresText ? parseImportDate(expiresText) : null;
  if (expiresText && !expires) reasons.push(`La fecha de vencimiento «${expiresText}» no es una fecha que entendamos (usa DD/MM/AAAA).`);
  const spotText = at('spot');
  const spot = /^\d{1,4}$/.test(spotText) && Number(spotText) >= 1 ? Number(spotText) : null;
  if (spotText && spot === null) reasons.push(`El lugar «${spotText}» no es un número de lugar (1, 2, 3…).`);
  if (reasons.length || !date || !time) return { ok: false, reasons, contact };
  return { ok: true, booking: { ...contact, date, time, class_type: classType, location: at('location') || null, spot, expires } };
}
