/**
 * A reservation's access code (decision 016): ten characters drawn
 * at random by the database when the reservation is created (50 bits, the
 * column default `reservation_access_code()` of migration 0008), replicated to
 * the desks with the reservation, so a desk checks a code offline with no
 * secret. Crockford's base-32 alphabet: no I, L, O or U, so a typed code cannot
 * be misread; shown in two groups of five ('K7M2Q-9XHPT'), the way staff read
 * it aloud.
 *
 * The QR keeps the spec's admin reservation link and adds the code as the
 * last segment: `<origin>/admin/reservaciones/<id>/<CODE>`. Only the code
 * admits; the id and the origin are for the portal page a phone opens.
 */
export const accessCodeAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const accessCodeLength = 10;

const validCode = new RegExp(`^[${accessCodeAlphabet}]{${accessCodeLength}}$`);

/** Typed input as the stored form: capitals, no separators; O read as 0, I and L as 1 (Crockford). Null when it cannot be a code. */
export function normaliseAccessCode(typed: string): string | null {
  const compact = typed
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  return validCode.test(compact) ? compact : null;
}

/** 'K7M2Q9XHPT' → 'K7M2Q-9XHPT'. */
export function formatAccessCode(code: string): string {
  const c = normaliseAccessCode(code) ?? code;
  return `${c.slice(0, 5)}-${c.slice(5)}`;
}

/** The QR's content: the spec's admin reservation link with the code as its last segment. */
export function accessCodeLink(origin: string, reservationId: number, code: string): string {
  return `${origin.replace(/\/+$/, '')}/admin/reservaciones/${reservationId}/${normaliseAccessCode(code) ?? code}`;
}

/**
 * What a scanner (or staff) entered at the desk:
 * - 'code': an access code, typed (any case, spaces, dashes) or inside a QR
 *   link; `reservationId` is the link's id, which must match the code's row.
 * - 'old-code': an old QR link without a code or a bare folio (sequential, so
 *   guessable): refused, staff find the person in the class list instead.
 * - 'not-a-code': anything else (another site's link, a product barcode).
 *
 * Keyboard-wedge scanners on a layout other than the one they were set for
 * turn '/', ':' and '-' into other symbols and may send capitals; letters and
 * digits survive, so only they are read.
 */
export type ScannedCode = { kind: 'code'; code: string; reservationId: number | null } | { kind: 'old-code' } | { kind: 'not-a-code' };

export function readScannedCode(text: string): ScannedCode {
  const input = text.normalize('NFKC').trim();
  if (!input) return { kind: 'not-a-code' };
  const link = /reservaciones[^0-9A-Za-z]{1,3}(\d{1,9})(?:[^0-9A-Za-z]{1,3}([0-9A-Za-z]{10}))?[^0-9A-Za-z]*$/i.exec(input);
  if (link) {
    if (!link[2]) return { kind: 'old-code' };
    const code = normaliseAccessCode(link[2]);
    return code ? { kind: 'code', code, reservationId: Number(link[1]) } : { kind: 'not-a-code' };
  }
  if (/^#?\s*\d{1,9}$/.test(input)) return { kind: 'old-code' };
  // A typed code: letters, digits and separators only (not a link or a sentence).
  if (/[^0-9A-Za-z\s\-_.'’?]/.test(input)) return { kind: 'not-a-code' };
  const code = normaliseAccessCode(input);
  return code ? { kind: 'code', code, reservationId: null } : { kind: 'not-a-code' };
}
