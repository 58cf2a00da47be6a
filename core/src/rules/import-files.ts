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
export function recognizeCustomerColumns(header: readonly string[]): Partial<Record<CustomerImportField, number>> {
  const folded = header.map(foldHeader);
  const found: Partial<Record<CustomerImportField, number>> = {};
  for (const field of customerImportFields) {
    const index = folded.findIndex((h, i) => customerColumnNames[field].includes(h) && !Object.values(found).includes(i));
    if (index >= 0) found[field] = index;
  }
  return found;
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
