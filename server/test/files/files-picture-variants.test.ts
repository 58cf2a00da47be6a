import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVariants, variantKeysOf, widthsFor } from '../../src/services/files/picture-variants.ts';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';

/** A picture with detail (noise over a gradient), so WebP has something to compress. */
async function picture(width: number, height: number, format: 'jpeg' | 'png' | 'webp'): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  const noise = randomBytes(width * height);
  for (let i = 0; i < raw.length; i += 3) {
    const x = (i / 3) % width;
    raw[i] = (x * 255) / width;
    raw[i + 1] = 120 + (noise[i / 3] ?? 0) / 8;
    raw[i + 2] = 200;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).toFormat(format).toBuffer();
}

async function upload(app: FastifyInstance, url: string, token: string, body: Buffer, filename: string) {
  const boundary = `----estudio${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nimage\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    body,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await app.inject({ method: 'POST', url, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } });
  return { status: res.statusCode, body: JSON.parse(res.body) as { file_id: number; file: { src: string; size: number; type: string; storage: string } } };
}

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe('which widths a picture gets', () => {
  it('each standard width narrower than the picture and its own width up to 1600; none under 320', () => {
    expect(widthsFor(4000)).toEqual([320, 640, 960, 1600]);
    expect(widthsFor(1600)).toEqual([320, 640, 960, 1600]);
    expect(widthsFor(1200)).toEqual([320, 640, 960, 1200]);
    expect(widthsFor(480)).toEqual([320, 480]);
    expect(widthsFor(320)).toEqual([320]);
    expect(widthsFor(319)).toEqual([]);
    expect(widthsFor(1)).toEqual([]);
  });

  it('names the variants from the original key, and none for a key without widths', () => {
    const id = '0b5d2c4e-8f1a-4b3c-9d2e-1f0a9b8c7d6e';
    expect(variantKeysOf(`${id}-w320-640-900.jpg`)).toEqual([`${id}-320w.webp`, `${id}-640w.webp`, `${id}-900w.webp`]);
    expect(variantKeysOf(`${id}.jpg`)).toEqual([]);
    expect(variantKeysOf('demo/hero.jpg')).toEqual([]);
    expect(variantKeysOf(`${id}-w320.gif`)).toEqual([]);
  });

  it('turns a phone photo upright (EXIF orientation 6: stored landscape, shown portrait)', async () => {
    const sideways = await sharp(await picture(800, 400, 'jpeg')).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const variants = await makeVariants(sideways);
    expect(variants.map((v) => v.width)).toEqual([320, 400]);
    const meta = await sharp(variants[0]?.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 640]);
  });
});

let server: TestServer;
let filesDir: string;
let cliente: string;
let admin: string;
beforeAll(async () => {
  filesDir = mkdtempSync(path.join(tmpdir(), 'estudio-variants-'));
  server = await startTestServer({ FILES_DIR: filesDir, FILES_MAX_BYTES: String(5 * 1024 * 1024) });
  cliente = (await login(server.app, 'cliente@estudio.demo')).idToken;
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('pictures on the server disk', () => {
  it('stores WebP variants beside a JPEG, names their widths in its src, serves them immutable, and removes them with it', async () => {
    const photo = await picture(2000, 1200, 'jpeg');
    const res = await upload(server.app, '/api/files', cliente, photo, 'clase.jpg');
    expect(res.status).toBe(200);
    const { file_id, file } = res.body;
    // The API's answer tells which widths exist; size and quota count what the customer sent.
    expect(file.src).toMatch(new RegExp(`^/files/${uuid}-w320-640-960-1600\\.jpg$`));
    expect(file).toMatchObject({ type: 'image/jpeg', storage: 'server', size: photo.length });
    const again = await call(server.app, 'GET', `/api/files/${file_id}`, { token: cliente });
    expect(again.body.file.src).toBe(file.src);

    const id = path.basename(file.src).replace(/-w[\d-]+\.jpg$/, '');
    expect(readdirSync(filesDir).filter((name) => name.startsWith(id)).sort()).toEqual(
      [`${id}-1600w.webp`, `${id}-320w.webp`, `${id}-640w.webp`, `${id}-960w.webp`, path.basename(file.src)].sort(),
    );
    for (const width of [320, 640, 960, 1600]) {
      const served = await server.app.inject({ method: 'GET', url: `/files/${id}-${width}w.webp` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(served.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', width, Math.round((width * 1200) / 2000)]);
    }
    const original = await server.app.inject({ method: 'GET', url: file.src });
    expect(original.rawPayload.equals(photo)).toBe(true);

    const removed = await call(server.app, 'DELETE', `/api/files/${file_id}`, { token: cliente });
    expect(removed.status).toBe(200);
    expect(readdirSync(filesDir).filter((name) => name.startsWith(id))).toEqual([]);
  });

  it('never enlarges: a PNG 500 px wide gets 320 and 500, a WebP 200 px wide none', async () => {
    const png = await upload(server.app, '/api/files', cliente, await picture(500, 300, 'png'), 'logo.png');
    expect(png.body.file.src).toMatch(new RegExp(`^/files/${uuid}-w320-500\\.png$`));
    const id = path.basename(png.body.file.src).replace(/-w[\d-]+\.png$/, '');
    const meta = await sharp(path.join(filesDir, `${id}-500w.webp`)).metadata();
    expect([meta.width, meta.height]).toEqual([500, 300]);

    const small = await upload(server.app, '/api/files', cliente, await picture(200, 120, 'webp'), 'icono.webp');
    expect(small.body.file.src).toMatch(new RegExp(`^/files/${uuid}\\.webp$`));
  });

  it('keeps a picture it cannot decode as it is, without variants: the upload is never lost', async () => {
    // A JPEG's signature and then garbage: the content says JPEG, the pixels are not there.
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 0x41)]);
    const res = await upload(server.app, '/api/files', cliente, broken, 'rota.jpg');
    expect(res.status).toBe(200);
    expect(res.body.file).toMatchObject({ type: 'image/jpeg', size: broken.length });
    expect(res.body.file.src).toMatch(new RegExp(`^/files/${uuid}\\.jpg$`));
    const key = path.basename(res.body.file.src);
    expect(readdirSync(filesDir).filter((name) => name.startsWith(key.slice(0, 36)))).toEqual([key]);
    expect((await server.app.inject({ method: 'GET', url: res.body.file.src })).rawPayload.equals(broken)).toBe(true);
    expect((await call(server.app, 'DELETE', `/api/files/${res.body.file_id}`, { token: cliente })).status).toBe(200);
    expect(existsSync(path.join(filesDir, key))).toBe(false);
  });
});

describe('pictures in S3 (s3rver on loopback)', () => {
  interface S3rverInstance {
    run(): Promise<{ port: number }>;
    close(): Promise<void>;
  }
  type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  let s3: S3rverInstance;
  let s3Dir: string;
  let endpoint: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    s3Dir = mkdtempSync(path.join(tmpdir(), 'estudio-s3rver-'));
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: 'estudio' }] });
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
    app = await server.withConfig({ FILES_DIR: filesDir, FILES_MAX_BYTES: String(5 * 1024 * 1024), S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    const saved = await call(app, 'PUT', '/api/appconfig', {
      token: admin,
      body: { config: [{ key: 'bucket', value: 'estudio' }, { key: 'region', value: 'us-east-1' }, { key: 'S3_ENDPOINT', value: endpoint }] },
    });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await s3?.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  it('stores the variants in the bucket beside the original, cached for good, and removes them with it', async () => {
    const photo = await picture(1200, 800, 'jpeg');
    const res = await upload(app, '/api/files/s3', cliente, photo, 'nube.jpg');
    expect(res.status).toBe(200);
    const src = res.body.file.src;
    expect(src).toMatch(new RegExp(`^${endpoint}/estudio/${uuid}-w320-640-960-1200\\.jpg$`));
    expect(res.body.file).toMatchObject({ storage: 's3', size: photo.length });
    const base = src.replace(/-w[\d-]+\.jpg$/, '');
    for (const width of [320, 640, 960, 1200]) {
      const fetched = await fetch(`${base}-${width}w.webp`);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-type')).toBe('image/webp');
      expect(fetched.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await sharp(Buffer.from(await fetched.arrayBuffer())).metadata()).width).toBe(width);
    }
    expect(Buffer.from(await (await fetch(src)).arrayBuffer()).equals(photo)).toBe(true);

    expect((await call(app, 'DELETE', `/api/files/${res.body.file_id}`, { token: cliente })).status).toBe(200);
    expect((await fetch(src)).status).toBe(404);
    for (const width of [320, 640, 960, 1200]) expect((await fetch(`${base}-${width}w.webp`)).status).toBe(404);
  });

  it('keeps an undecodable picture in the bucket as it is', async () => {
    // A PNG's signature, a header of 1024×768 (read as such) and a data chunk that does not inflate.
    const broken = Buffer.concat([
      Buffer.from('89504e470d0a1a0a0000000d49484452000004000000030008020000000000000000000bb849444154', 'hex'),
      Buffer.alloc(3000, 0x41),
      Buffer.alloc(4),
    ]);
    const res = await upload(app, '/api/files/s3', cliente, broken, 'rota.png');
    expect(res.status).toBe(200);
    expect(res.body.file.src).toMatch(new RegExp(`^${endpoint}/estudio/${uuid}\\.png$`));
    expect(Buffer.from(await (await fetch(res.body.file.src)).arrayBuffer()).equals(broken)).toBe(true);
  });
});
