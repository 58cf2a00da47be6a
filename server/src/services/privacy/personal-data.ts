import { formatDateTime, localDate, studioDayjs, studioTimeZone, texts, type PersonalDataFormat, type PersonalDataOutput, toCsv } from '@estudio/core';
import { and, asc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { audit_log } from '@estudio/db/schema/audit';
import { cfdi, tax_profile } from '@estudio/db/schema/cfdi';
import { accepted_page, file } from '@estudio/db/schema/content';
import { address, customer, customer_field_value, customer_note } from '@estudio/db/schema/customer';
import { discount_use } from '@estudio/db/schema/discounts';
import { message_preference, outbox_message } from '@estudio/db/schema/outbox';
import { payment_source } from '@estudio/db/schema/payments';
import { product_sale } from '@estudio/db/schema/products';
import { available_classes, invoice, purchase, renewal_payment } from '@estudio/db/schema/purchases';
import { class_reservation, class_reservation_penalty, standing_booking, waitlist } from '@estudio/db/schema/reservations';
import { favorite, playback } from '@estudio/db/schema/videos';
import { privacy_request } from '@estudio/db/schema/privacy';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { zipArchive } from './zip.ts';

export type PersonalDataSection = keyof typeof texts.personalData.sections;

/**
 * Columns that are the system's, not hers: sign-in and payment providers' ids, secret links, a message's delivery
 * bookkeeping. Everything else a row holds about her is in her copy.
 */
const notHers = new Set([
  'uid',
  'stripe_customer_id',
  'provider_payment_id',
  'provider_session_id',
  'provider_invoice_id',
  'provider_id',
  'provider_message_id',
  'source_id',
  'stop_token',
  'calendar_token',
  'dedupe_key',
  'claimed_until',
  'next_attempt_at',
  'attempts',
  'last_error',
  'storage_key',
]);

/** A message's text can hold a sign-in or reset link: her copy says what was sent and when, not the link. */
const messageText = new Set(['body', 'html', 'attachments', 'whatsapp_template']);

interface Source {
  table: PgTable;
  where: (customerId: number) => SQL | undefined;
  omit?: ReadonlySet<string>;
}

const byCustomer = (table: PgTable & { customer_id: AnyPgColumn }): Source => ({ table, where: (id) => eq(table.customer_id, id) });

/**
 * Where each section of her data lives. A table that keeps a customer's data and is not here is a table her copy
 * misses: the test lists every table with a customer column against this one.
 */
export const personalDataSources: Record<PersonalDataSection, Source> = {
  perfil: byCustomer(customer),
  direcciones: byCustomer(address),
  respuestas: byCustomer(customer_field_value),
  notas: byCustomer(customer_note),
  documentos_aceptados: byCustomer(accepted_page),
  preferencias_de_mensajes: byCustomer(message_preference),
  mensajes: { ...byCustomer(outbox_message), omit: messageText },
  datos_fiscales: byCustomer(tax_profile),
  compras: byCustomer(purchase),
  pagos_de_membresia: {
    table: renewal_payment,
    // A subquery: one statement however many purchases she has.
    where: (id) => inArray(renewal_payment.purchase_id, sql`(select ${purchase.purchase_id} from ${purchase} where ${purchase.customer_id} = ${id})`),
  },
  facturas: byCustomer(invoice),
  cfdi: byCustomer(cfdi),
  creditos: byCustomer(available_classes),
  reservaciones: byCustomer(class_reservation),
  lista_de_espera: byCustomer(waitlist),
  penalizaciones: byCustomer(class_reservation_penalty),
  reservaciones_semanales: byCustomer(standing_booking),
  descuentos_usados: byCustomer(discount_use),
  productos: byCustomer(product_sale),
  tarjetas_guardadas: byCustomer(payment_source),
  archivos: byCustomer(file),
  favoritos: byCustomer(favorite),
  reproducciones: byCustomer(playback),
  solicitudes_arco: byCustomer(privacy_request),
  historial: { table: audit_log, where: (id) => and(eq(audit_log.entity, 'customer'), eq(audit_log.entity_id, String(id))) },
};

type Row = Record<string, unknown>;

/** The columns of a section, in the table's order, without the system's. */
function columnsOf(source: Source): string[] {
  return Object.keys(getTableColumns(source.table)).filter((key) => !notHers.has(key) && !source.omit?.has(key));
}

/** Everything the studio keeps about the customer, section by section, rows as stored (minus the system's columns). */
export async function collectPersonalData(db: Db, customerId: number): Promise<Record<PersonalDataSection, Row[]>> {
  const sections = Object.entries(personalDataSources) as [PersonalDataSection, Source][];
  const read = await Promise.all(
    sections.map(async ([key, source]) => {
      const columns = columnsOf(source);
      const first = Object.values(getTableColumns(source.table))[0];
      const rows = (await db
        .select()
        .from(source.table)
        .where(source.where(customerId))
        .orderBy(...(first ? [asc(first)] : []))) as Row[];
      return [key, rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null])))] as const;
    }),
  );
  return Object.fromEntries(read) as Record<PersonalDataSection, Row[]>;
}

const jsonValue = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

function csvCell(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return String(value);
}

/**
 * Her copy as a file (Mexico's right of access): JSON with every section, or a ZIP with one CSV per section (the
 * owner's exports' CSV: UTF-8 with BOM, so Excel opens it) and a LEEME.txt saying what each holds.
 */
export async function personalDataFile(db: Db, customerId: number, format: PersonalDataFormat, now: Date = new Date()): Promise<PersonalDataOutput> {
  const settings = await loadStudioSettings(db);
  const tz = studioTimeZone(settings);
  const studio = settings.business_name;
  const data = await collectPersonalData(db, customerId);
  const t = texts.personalData;
  const day = localDate(now, tz);
  if (format === 'json') {
    const document = {
      estudio: studio,
      generado: now.toISOString(),
      secciones: Object.fromEntries(
        (Object.keys(data) as PersonalDataSection[]).map((key) => [
          key,
          { descripcion: t.sections[key], registros: data[key].map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, jsonValue(v)]))) },
        ]),
      ),
    };
    return { filename: t.fileName(day, 'json'), content_type: 'application/json; charset=utf-8', encoding: 'utf8', content: JSON.stringify(document, null, 2) };
  }
  const wall = studioDayjs(now, tz);
  const entries = [
    { name: 'LEEME.txt', data: Buffer.from(`\uFEFF${t.readme(studio, formatDateTime(now, tz))}\r\n`, 'utf8') },
    ...(Object.keys(data) as PersonalDataSection[]).map((key) => {
      const header = columnsOf(personalDataSources[key]);
      return { name: `${key}.csv`, data: Buffer.from(toCsv(header, data[key].map((row) => header.map((c) => csvCell(row[c])))), 'utf8') };
    }),
  ];
  const zip = zipArchive(entries, { year: wall.year(), month: wall.month() + 1, day: wall.date(), hour: wall.hour(), minute: wall.minute(), second: wall.second() });
  return { filename: t.fileName(day, 'zip'), content_type: 'application/zip', encoding: 'base64', content: zip.toString('base64') };
}
