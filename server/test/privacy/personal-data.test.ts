import { inflateRawSync } from 'node:zlib';
import { getTableColumns, getTableName, isTable } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '@estudio/db';
import { personalDataSources } from '../../src/services/privacy/personal-data.ts';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/**
 * Mexico's right of access: a customer downloads everything the studio keeps about her, as JSON or as CSV files in a
 * ZIP, from her own session only, without the system's secrets (sign-in ids, secret links, a message's text).
 */
let server: TestServer;
let cliente: string;
let ilimitado: string;
let admin: string;
let clienteId: number;
demoStudio(['cliente', 'ilimitado', 'admin'], (s) => ({ server, tokens: { cliente, ilimitado, admin } } = s));
beforeAll(async () => {
  clienteId = await customerId(server.db, 'cliente@estudio.demo');
});

const download = async (url: string, token?: string) =>
  server.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The files of a ZIP by its central directory, inflated: what an unzip tool reads. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const packedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    files.set(name, inflateRawSync(zip.subarray(dataStart, dataStart + packedSize)));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return files;
}

const secretKeys = ['uid', 'password_hash', 'stripe_customer_id', 'stop_token', 'calendar_token', 'source_id', 'provider_payment_id', 'body', 'html'];

describe('her copy of her data', () => {
  it('as JSON: every section, only her rows, and none of the system secrets', async () => {
    const res = await download('/api/customer/my_data', cliente);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="mis-datos-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const copy = JSON.parse(res.body) as { estudio: string; secciones: Record<string, { descripcion: string; registros: Record<string, unknown>[] }> };
    expect(copy.estudio).toBe('Estudio Demo');
    expect(Object.keys(copy.secciones)).toEqual(Object.keys(personalDataSources));
    const { perfil, compras, creditos, reservaciones, documentos_aceptados, mensajes, preferencias_de_mensajes } = copy.secciones;
    expect(perfil?.registros).toHaveLength(1);
    expect(perfil?.registros[0]).toMatchObject({ customer_id: clienteId, email: 'cliente@estudio.demo' });
    // The demo's customer has bought, booked and accepted the documents: her copy shows it, and only hers.
    for (const section of [compras, creditos, reservaciones, documentos_aceptados]) {
      expect(section?.registros.length, section?.descripcion).toBeGreaterThan(0);
      for (const row of section?.registros ?? []) expect(row.customer_id).toBe(clienteId);
    }
    expect(documentos_aceptados?.registros[0]).toHaveProperty('version');
    expect(preferencias_de_mensajes?.registros[0]).toMatchObject({ email_enabled: true });
    for (const row of mensajes?.registros ?? []) expect(row).toHaveProperty('subject');
    // No secret anywhere: not in any section, at any depth of the rows' keys.
    for (const [name, section] of Object.entries(copy.secciones)) {
      for (const row of section.registros) for (const key of secretKeys) expect(row, `${name}.${key}`).not.toHaveProperty(key);
    }
    expect(res.body).not.toContain('$argon2');
  });

  it('as CSV: a ZIP with a LEEME and one file per section that Excel opens (BOM, header row, her rows)', async () => {
    const res = await download('/api/customer/my_data?format=csv', cliente);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/filename="mis-datos-\d{4}-\d{2}-\d{2}\.zip"/);
    const files = unzip(res.rawPayload);
    expect([...files.keys()]).toEqual(['LEEME.txt', ...Object.keys(personalDataSources).map((k) => `${k}.csv`)]);
    expect(files.get('LEEME.txt')?.toString('utf8')).toContain('Copia de tus datos personales en Estudio Demo');
    const perfil = files.get('perfil.csv')?.toString('utf8') ?? '';
    expect(perfil.startsWith('\uFEFFcustomer_id,')).toBe(true);
    const lines = perfil.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('cliente@estudio.demo');
    expect(lines[0]).not.toMatch(/\buid\b|stripe_customer_id/);
    // A section she has nothing in is its header alone.
    const json = JSON.parse((await download('/api/customer/my_data', cliente)).body) as { secciones: Record<string, { registros: unknown[] }> };
    for (const [key, section] of Object.entries(json.secciones)) {
      const rows = (files.get(`${key}.csv`)?.toString('utf8') ?? '').trim().split('\r\n');
      // A cell may hold a line break inside quotes; the count of records is at least the rows when none does.
      expect(rows.length, key).toBeGreaterThanOrEqual(section.registros.length + 1);
    }
  });

  it('is her own only: no session is a 401, naming someone else answers the caller\'s own, and another customer gets her own copy', async () => {
    const anonymous = await call(server.app, 'GET', '/api/customer/my_data');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toMatch(/sesión/i);
    // A query reads only what it takes (decision 032): naming her id still answers the caller's own copy.
    const naming = await call(server.app, 'GET', `/api/customer/my_data?customer_id=${clienteId}`, { token: ilimitado });
    expect(naming.status).toBe(200);
    expect(naming.body.secciones.perfil.registros[0].customer_id).not.toBe(clienteId);
    const badFormat = await call(server.app, 'GET', '/api/customer/my_data?format=pdf', { token: cliente });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.message).not.toMatch(/enum|expected|invalid/i);
    const other = JSON.parse((await download('/api/customer/my_data', ilimitado)).body) as { secciones: Record<string, { registros: { customer_id?: number }[] }> };
    expect(other.secciones.perfil?.registros[0]?.customer_id).not.toBe(clienteId);
    for (const section of Object.values(other.secciones)) for (const row of section.registros) if ('customer_id' in row) expect(row.customer_id).not.toBe(clienteId);
  });

  it('misses no table: every table with a customer column is a section of her copy, or is not about her for a stated reason', () => {
    const sourced = new Set(Object.values(personalDataSources).map((s) => getTableName(s.table)));
    // Rows whose customer column is a staff member or a coach, not the customer the row is about.
    const notAboutHer: Record<string, string> = {
      audit_log: 'the staff member who made a change; changes to her account are her section historial',
      instructor: "a coach's profile, linked to the coach's own account",
      sync_client: "a desk signed in by a staff member",
      sync_mutation: 'a change a staff member made at a desk; its effect is in her sections',
    };
    const withCustomer = Object.values(schema)
      .filter((value) => isTable(value) && 'customer_id' in getTableColumns(value as PgTable))
      .map((value) => getTableName(value as PgTable));
    expect(withCustomer.length).toBeGreaterThan(20);
    expect(withCustomer.filter((name) => !sourced.has(name) && !(name in notAboutHer))).toEqual([]);
  });

  it("a health note is in her own copy, and in none of the owner's exports, which do not need it", async () => {
    const secret = 'Lesión de rodilla izquierda: sin saltos.';
    const note = await call(server.app, 'POST', '/api/customer/notes', { token: admin, body: { customer_id: clienteId, kind: 'health', body: secret } });
    expect(note.status, note.raw).toBe(200);
    expect((await download('/api/customer/my_data', cliente)).body).toContain(secret);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const kind of ['customers', 'purchases', 'reservations', 'attendance']) {
      const file = await download(`/api/reports/export?kind=${kind}&start_date=${day(-300)}&end_date=${day(60)}`, admin);
      expect(file.statusCode, `${kind}: ${file.body.slice(0, 200)}`).toBe(200);
      expect(file.body.split('\r\n').length, kind).toBeGreaterThan(2);
      expect(file.body, kind).not.toContain('rodilla');
    }
  });
});
