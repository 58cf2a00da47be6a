import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer } from '@estudio/db/schema/customer';
import { call, login, startTestServer, upload, type TestServer } from '../support/helpers.ts';

/**
 * A file id a caller names is checked against the caller, through one helper,
 * wherever it is sent (both drivers). Reproduces the sign-up that named a
 * victim's private PDF and then read it back through its own profile; then
 * tries the same id on every other place that takes one.
 */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

let server: TestServer;
let filesDir: string;
let victim: string;
let admin: string;
let required: number[];
let victimPdf: number;
let victimPhoto: number;
let staffPhoto: number;

beforeAll(async () => {
  filesDir = mkdtempSync(path.join(tmpdir(), 'estudio-files-own-'));
  server = await startTestServer({ FILES_DIR: filesDir });
  victim = (await login(server.app, 'cliente@estudio.demo')).idToken;
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  const pages = await call(server.app, 'GET', '/api/pages');
  required = (pages.body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
  const doc = await upload(server.app, '/api/files', victim, [{ name: 'file', value: pdf, filename: 'estudios-medicos.pdf', contentType: 'application/pdf' }]);
  expect(doc.status).toBe(200);
  victimPdf = doc.body.file_id as number;
  const photo = await upload(server.app, '/api/files', victim, [{ name: 'kind', value: 'image' }, { name: 'file', value: png, filename: 'yo.png', contentType: 'image/png' }]);
  victimPhoto = photo.body.file_id as number;
  const own = await upload(server.app, '/api/files', admin, [{ name: 'kind', value: 'image' }, { name: 'file', value: png, filename: 'coach.png', contentType: 'image/png' }]);
  staffPhoto = own.body.file_id as number;
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

async function stranger(email: string) {
  const identity = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Extraña2024!' } });
  expect(identity.status).toBe(200);
  return identity.body.idToken as string;
}

describe("a customer's private upload", () => {
  it('cannot be named at sign-up: 404, and no customer is created', async () => {
    const email = `intrusa-${Date.now()}@correo.mx`;
    const token = await stranger(email);
    for (const file_id of [victimPdf, victimPhoto]) {
      const res = await call(server.app, 'POST', '/api/customer/signup', {
        token,
        body: { name: 'Intrusa', last_name: 'Prueba', email, phone: `55${String(Date.now()).slice(-8)}`, birthdate: '1990-01-01', accepted_page_ids: required, file_id },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'file/not-found', message: expect.any(String) });
    }
    expect((await server.db.select({ n: count() }).from(customer).where(eq(customer.email, email)))[0]?.n).toBe(0);
  });

  it('cannot be set as another customer’s picture, nor by staff on a coach, an announcement or a package', async () => {
    const nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
    expect((await call(server.app, 'PUT', '/api/customer', { token: nuevo, body: { file_id: victimPhoto } })).status).toBe(404);
    const coach = await call(server.app, 'POST', '/api/instructors', { token: admin, body: { name: 'Coach', last_name: 'Nueva', file_id: victimPhoto } });
    expect(coach.status).toBe(404);
    const notice = await call(server.app, 'POST', '/api/announcements', { token: admin, body: { title: 'Aviso', content: 'Texto', file_id: victimPdf } });
    expect(notice.status).toBe(404);
    const pkg = await call(server.app, 'POST', '/api/class_packages', {
      token: admin,
      body: { title: 'Con recibo ajeno', price: '100.00', class_amount: 1, downloadable_file_id: victimPdf },
    });
    expect(pkg.status).toBe(404);
    expect(pkg.body.code).toBe('file/not-found');
  });

  it('is still its owner’s to use, and the studio’s own pictures go where the studio puts them', async () => {
    expect((await call(server.app, 'PUT', '/api/customer', { token: victim, body: { file_id: victimPhoto } })).status).toBe(200);
    const coach = await call(server.app, 'POST', '/api/instructors', { token: admin, body: { name: 'Coach', last_name: 'Propia', file_id: staffPhoto } });
    expect(coach.status, coach.raw).toBe(200);
    const email = `con-foto-${Date.now()}@correo.mx`;
    const token = await stranger(email);
    const signed = await call(server.app, 'POST', '/api/customer/signup', {
      token,
      body: { name: 'Con', last_name: 'Foto', email, phone: `56${String(Date.now()).slice(-8)}`, birthdate: '1990-01-01', accepted_page_ids: required, file_id: staffPhoto },
    });
    expect(signed.status, signed.raw).toBe(200);
  });
});
