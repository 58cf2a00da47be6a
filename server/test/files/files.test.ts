import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer } from '@estudio/db/schema/customer';
import { file as fileTable } from '@estudio/db/schema/content';
import { uploadsPerMinute } from '../../src/http/files-upload.ts';
import { call, login, startTestServer, upload, type TestServer } from '../support/helpers.ts';

/** 1×1 transparent PNG. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

let server: TestServer;
let filesDir: string;
let cliente: string;
let nuevo: string;
let staff: string;
let admin: string;
beforeAll(async () => {
  filesDir = mkdtempSync(path.join(tmpdir(), 'estudio-files-'));
  server = await startTestServer({ FILES_DIR: filesDir, FILES_MAX_BYTES: String(64 * 1024) });
  cliente = (await login(server.app, 'cliente@estudio.demo')).idToken;
  nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
  staff = (await login(server.app, 'recepcion@estudio.demo')).idToken;
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('local uploads', () => {
  it('stores a PNG under a random name, answers {file_id, file} and serves it at /files/*', async () => {
    const res = await upload(server.app, '/api/files', cliente, [
      { name: 'kind', value: 'image' },
      { name: 'file', value: png, filename: '../../mi foto.png', contentType: 'image/png' },
    ]);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const { file_id, file } = res.body;
    expect(file).toMatchObject({ file_id, name: 'mi foto.png', type: 'image/png', storage: 'server', size: png.length });
    expect(file.src).toMatch(/^\/files\/[0-9a-f-]{36}\.png$/);
    expect(file.src).not.toContain('foto');
    expect(existsSync(path.join(filesDir, path.basename(file.src as string)))).toBe(true);

    const served = await server.app.inject({ method: 'GET', url: file.src as string });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    const missing = await server.app.inject({ method: 'GET', url: '/files/00000000-0000-0000-0000-000000000000.png' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect((await server.app.inject({ method: 'GET', url: '/files/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);

    // The upload becomes the profile picture.
    const saved = await call(server.app, 'PUT', '/api/customer', { token: cliente, body: { file_id } });
    expect(saved.status).toBe(200);
    expect(saved.body.customer.file).toEqual({ file_id, src: file.src, name: 'mi foto.png', type: 'image/png' });
  });

  it('judges the content, not the name: a text file named .png is refused', async () => {
    const res = await upload(server.app, '/api/files', cliente, [
      { name: 'file', value: 'hola, no soy una imagen', filename: 'foto.png', contentType: 'image/png' },
    ]);
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      code: 'file/type-not-allowed',
      message: 'El tipo de archivo no está permitido. Carga una imagen (JPG, PNG, WEBP o GIF) o un PDF.',
    });
    const asImage = await upload(server.app, '/api/files?kind=image', cliente, [{ name: 'file', value: 'texto', filename: 'foto.png' }]);
    expect(asImage.status).toBe(415);
    expect(asImage.body.message).toBe('El archivo debe ser una imagen (JPG, PNG, WEBP o GIF).');
  });

  it('over a real connection, a refused upload still answers its Spanish message (the body was read whole)', async () => {
    const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
    const send = async (parts: [string, string | Blob, string?][]) => {
      const form = new FormData();
      for (const [name, value, filename] of parts) {
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, value, filename);
      }
      const res = await fetch(`${base}/api/files`, { method: 'POST', headers: { authorization: `Bearer ${cliente}` }, body: form });
      return { status: res.status, body: (await res.json()) as { code: string; message: string } };
    };
    const notImage = await send([['kind', 'image'], ['file', new Blob(['%PDF-1.4 esto no es una imagen'], { type: 'image/png' }), 'notas.pdf']]);
    expect(notImage).toEqual({ status: 415, body: { code: 'file/not-image', message: 'El archivo debe ser una imagen (JPG, PNG, WEBP o GIF).' } });
    expect(await send([['kind', 'image']])).toEqual({ status: 400, body: { code: 'file/missing', message: 'Debes cargar el archivo solicitado.' } });
  });

  it('accepts a PDF as a document but not for an image field', async () => {
    const doc = await upload(server.app, '/api/files', nuevo, [{ name: 'file', value: pdf, filename: 'certificado.pdf' }]);
    expect(doc.status).toBe(200);
    expect(doc.body.file).toMatchObject({ type: 'application/pdf', name: 'certificado.pdf' });
    const image = await upload(server.app, '/api/files', nuevo, [
      { name: 'data', value: JSON.stringify({ kind: 'image' }) },
      { name: 'file', value: pdf, filename: 'certificado.pdf' },
    ]);
    expect(image.body.code).toBe('file/not-image');
    const profile = await call(server.app, 'PUT', '/api/customer', { token: nuevo, body: { file_id: doc.body.file_id } });
    expect(profile.status).toBe(415);
  });

  it('refuses a file over the size limit with a Spanish message, a request without file and a visitor', async () => {
    const big = Buffer.concat([png, Buffer.alloc(70 * 1024)]);
    const res = await upload(server.app, '/api/files', cliente, [{ name: 'file', value: big, filename: 'grande.png' }]);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'file/too-large', message: 'El archivo es demasiado grande. El tamaño máximo es de 0.1 MB.' });
    const none = await upload(server.app, '/api/files', cliente, [{ name: 'kind', value: 'image' }]);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Debes cargar el archivo solicitado.');
    expect((await upload(server.app, '/api/files', undefined, [{ name: 'file', value: png, filename: 'a.png' }])).status).toBe(401);
  });

  it('accepts files larger than the 1 MB JSON body limit under a 5 MB file limit', async () => {
    const app = await server.withConfig({ FILES_DIR: filesDir, FILES_MAX_BYTES: String(5 * 1024 * 1024) });
    const photo = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await upload(app, '/api/files', cliente, [{ name: 'file', value: photo, filename: 'grande.png' }]);
    expect(res.status).toBe(200);
    expect(res.body.file.size).toBe(photo.length);
    const over = await upload(app, '/api/files', cliente, [{ name: 'file', value: Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]), filename: 'enorme.png' }]);
    expect(over.status).toBe(413);
    expect(over.body.message).toBe('El archivo es demasiado grande. El tamaño máximo es de 5 MB.');
  });

  it('limits uploads per client address and minute', async () => {
    const app = await server.withConfig({ FILES_DIR: filesDir });
    const statuses: number[] = [];
    for (let i = 0; i <= uploadsPerMinute; i++) {
      statuses.push((await upload(app, '/api/files', cliente, [{ name: 'file', value: 'x', filename: 'x.txt' }])).status);
    }
    expect(statuses.slice(0, uploadsPerMinute).every((s) => s === 415)).toBe(true);
    const limited = await upload(app, '/api/files', cliente, [{ name: 'file', value: png, filename: 'a.png' }]);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate-limited');
  });

  it('lists, reads, renames and deletes own files; others get 404; staff see all', async () => {
    const mine = await upload(server.app, '/api/files', nuevo, [{ name: 'file', value: png, filename: 'propia.png' }]);
    const id = mine.body.file_id as number;

    const list = await call(server.app, 'GET', '/api/files', { token: nuevo });
    const ids = (list.body.files as { file_id: number; customer_id: number }[]).map((f) => f.file_id);
    expect(ids).toContain(id);
    expect(new Set((list.body.files as { customer_id: number }[]).map((f) => f.customer_id)).size).toBe(1);
    expect(((await call(server.app, 'GET', '/api/files', { token: cliente })).body.files as { file_id: number }[]).map((f) => f.file_id)).not.toContain(id);
    expect(((await call(server.app, 'GET', '/api/files', { token: staff })).body.files as { file_id: number }[]).map((f) => f.file_id)).toContain(id);

    expect((await call(server.app, 'GET', `/api/files/${id}`, { token: cliente })).status).toBe(404);
    expect((await call(server.app, 'GET', `/api/files/${id}`, { token: staff })).body.file.name).toBe('propia.png');
    expect((await call(server.app, 'PUT', '/api/files', { token: cliente, body: { file_id: id, name: 'ajena.png' } })).status).toBe(404);
    const renamed = await call(server.app, 'PUT', '/api/files', { token: nuevo, body: { file_id: id, name: 'Mi credencial' } });
    expect(renamed.body.file).toMatchObject({ file_id: id, name: 'Mi credencial' });

    expect((await call(server.app, 'DELETE', `/api/files/${id}`, { token: cliente })).status).toBe(404);
    const src = renamed.body.file.src as string;
    expect((await call(server.app, 'DELETE', `/api/files/${id}`, { token: admin })).body).toEqual({ deleted: true, id });
    expect(existsSync(path.join(filesDir, path.basename(src)))).toBe(false);
    expect((await call(server.app, 'GET', `/api/files/${id}`, { token: admin })).status).toBe(404);
  });
});

/** Bytes the customer with this e-mail keeps in files now. */
async function usedBytes(email: string): Promise<number> {
  const [row] = await server.db
    .select({ bytes: sum(fileTable.size) })
    .from(fileTable)
    .innerJoin(customer, eq(customer.customer_id, fileTable.customer_id))
    .where(eq(customer.email, email));
  return Number(row?.bytes ?? 0);
}

/** A 40 KB PNG (a real PNG header, then padding). */
const photo40k = () => Buffer.concat([png, Buffer.alloc(40 * 1024 - png.length)]);
const filesOnDisk = () => readdirSync(filesDir).length;

describe('per-customer upload quota (100 MB in 20 requests)', () => {
  it('refuses the upload that would pass the quota with a Spanish 413, stores nothing, and a delete frees the space', async () => {
    const ilimitado = (await login(server.app, 'ilimitado@estudio.demo')).idToken;
    const used = await usedBytes('ilimitado@estudio.demo');
    const quota = used + 100 * 1024;
    const app = await server.withConfig({ FILES_DIR: filesDir, FILES_MAX_BYTES: String(64 * 1024), FILES_CUSTOMER_QUOTA_BYTES: String(quota) });
    const first = await upload(app, '/api/files', ilimitado, [{ name: 'file', value: photo40k(), filename: 'uno.png' }]);
    const second = await upload(app, '/api/files', ilimitado, [{ name: 'file', value: photo40k(), filename: 'dos.png' }]);
    expect([first.status, second.status]).toEqual([200, 200]);

    const onDisk = filesOnDisk();
    const third = await upload(app, '/api/files', ilimitado, [{ name: 'file', value: photo40k(), filename: 'tres.png' }]);
    expect(third.status).toBe(413);
    expect(third.body.code).toBe('file/quota-exceeded');
    expect(third.body.message).toMatch(/^Ya no tienes espacio para este archivo: tus archivos ocupan .* de .*\. Borra alguno de tus archivos/);
    expect(filesOnDisk()).toBe(onDisk);
    expect(await usedBytes('ilimitado@estudio.demo')).toBe(used + 2 * photo40k().length);

    expect((await call(app, 'DELETE', `/api/files/${first.body.file_id}`, { token: ilimitado })).status).toBe(200);
    expect((await upload(app, '/api/files', ilimitado, [{ name: 'file', value: photo40k(), filename: 'tres.png' }])).status).toBe(200);
  });

  it('counts parallel uploads of one customer one after another: 10 at once, room for 2, 2 stored', async () => {
    const nuevoToken = (await login(server.app, 'nuevo@estudio.demo')).idToken;
    const used = await usedBytes('nuevo@estudio.demo');
    const app = await server.withConfig({
      FILES_DIR: filesDir,
      FILES_MAX_BYTES: String(64 * 1024),
      FILES_CUSTOMER_QUOTA_BYTES: String(used + 2 * photo40k().length + 1024),
    });
    const onDisk = filesOnDisk();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => upload(app, '/api/files', nuevoToken, [{ name: 'file', value: photo40k(), filename: `p${i}.png` }])),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, ...Array(8).fill(413)]);
    expect(filesOnDisk()).toBe(onDisk + 2);
    expect(await usedBytes('nuevo@estudio.demo')).toBe(used + 2 * photo40k().length);
  });

  it('has no quota for staff and admins, and a 20 MB default for customers', async () => {
    const app = await server.withConfig({ FILES_DIR: filesDir, FILES_MAX_BYTES: String(64 * 1024), FILES_CUSTOMER_QUOTA_BYTES: String(1024) });
    expect((await upload(app, '/api/files', staff, [{ name: 'file', value: photo40k(), filename: 'recepcion.png' }])).status).toBe(200);
    expect((await upload(app, '/api/files', admin, [{ name: 'file', value: photo40k(), filename: 'admin.png' }])).status).toBe(200);
    expect((await upload(app, '/api/files', cliente, [{ name: 'file', value: photo40k(), filename: 'cliente.png' }])).status).toBe(413);
    expect(server.config.FILES_CUSTOMER_QUOTA_BYTES).toBe(20 * 1024 * 1024);
  });
});

describe('S3 uploads (s3rver on loopback)', () => {
  interface S3rverInstance {
    run(): Promise<{ port: number }>;
    close(): Promise<void>;
  }
  type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  let s3: S3rverInstance;
  let s3Dir: string;
  let endpoint: string;

  beforeAll(async () => {
    s3Dir = mkdtempSync(path.join(tmpdir(), 'estudio-s3rver-'));
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: 'estudio' }] });
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await s3?.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  it('answers 412 while S3 is not configured', async () => {
    const res = await upload(server.app, '/api/files/s3', cliente, [{ name: 'file', value: png, filename: 'a.png' }]);
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('file/s3-not-configured');
  });

  it('stores in the bucket through POST /api/files/s3, and through /api/files when files_location is s3', async () => {
    const app = await server.withConfig({ FILES_DIR: filesDir, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    const saved = await call(app, 'PUT', '/api/appconfig', {
      token: admin,
      body: {
        config: [
          { key: 'bucket', value: 'estudio' },
          { key: 'region', value: 'us-east-1' },
          { key: 'S3_ENDPOINT', value: endpoint },
        ],
      },
    });
    expect(saved.status).toBe(200);

    const res = await upload(app, '/api/files/s3', cliente, [{ name: 'file', value: png, filename: 'nube.png' }]);
    expect(res.status).toBe(200);
    expect(res.body.file).toMatchObject({ storage: 's3', type: 'image/png', name: 'nube.png' });
    const src = res.body.file.src as string;
    expect(src).toMatch(new RegExp(`^${endpoint}/estudio/[0-9a-f-]{36}\\.png$`));
    const fetched = await fetch(src);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(png)).toBe(true);

    // Local uploads stay local until files_location says s3.
    const local = await upload(app, '/api/files', cliente, [{ name: 'file', value: png, filename: 'local.png' }]);
    expect(local.body.file.storage).toBe('server');
    await call(app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'files_location', value: 's3' }] } });
    const configured = await upload(app, '/api/files', cliente, [{ name: 'file', value: pdf, filename: 'doc.pdf' }]);
    expect(configured.body.file).toMatchObject({ storage: 's3', type: 'application/pdf' });

    const removed = await call(app, 'DELETE', `/api/files/${res.body.file_id}`, { token: cliente });
    expect(removed.status).toBe(200);
    expect((await fetch(src)).status).toBe(404);
    await call(app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'files_location', value: 'server' }] } });
  });

  it('keeps the per-customer quota in the bucket too: the refused upload leaves no object', async () => {
    const used = await usedBytes('cliente@estudio.demo');
    const app = await server.withConfig({
      FILES_DIR: filesDir,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      FILES_MAX_BYTES: String(64 * 1024),
      FILES_CUSTOMER_QUOTA_BYTES: String(used + photo40k().length + 1024),
    });
    const objects = () => readdirSync(s3Dir, { recursive: true }).length;
    expect((await upload(app, '/api/files/s3', cliente, [{ name: 'file', value: photo40k(), filename: 'nube1.png' }])).status).toBe(200);
    const before = objects();
    const refused = await upload(app, '/api/files/s3', cliente, [{ name: 'file', value: photo40k(), filename: 'nube2.png' }]);
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe('file/quota-exceeded');
    expect(objects()).toBe(before);
  });
});
