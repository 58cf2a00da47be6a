import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/helpers.ts';

/**
 * The portal's build writes a .br and a .gz beside each asset
 * (portal/vite.config.ts); the server sends the one the browser accepts, so a
 * first visit downloads about a third of the JavaScript (bench/portal-budget.ts).
 */
describe('portal assets', () => {
  const script = `export const greeting = ${JSON.stringify('¡Hola! '.repeat(400))};\n`;
  let server: TestServer;

  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'estudio-portal-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), gzipSync(script));
    // Below the plugin's 1 KiB threshold: no compressed siblings.
    writeFileSync(path.join(dist, 'assets', 'tiny-abc123.js'), 'export {};\n');
    server = await startTestServer({ PORTAL_DIST: dist });
  });
  afterAll(() => server.close());

  it('sends the brotli file to a browser that accepts it, still cached for good', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(script) / 5);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip file when brotli is not accepted, and the plain file when nothing is', async () => {
    const gz = await server.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await server.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('falls back to the plain file when the build wrote no compressed one', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/assets/tiny-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export {};\n');
  });
});

/**
 * A missing file under /demo/ answered 200 with the app's HTML, so an
 * <img> "loaded" a page and every coach showed initials. A path that names a
 * file (its last segment has an extension) answers 404 when the file is not
 * there; the portal's routes (no extension) still get the app.
 */
describe('missing static files', () => {
  let server: TestServer;

  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'estudio-portal-'));
    mkdirSync(path.join(dist, 'assets'));
    mkdirSync(path.join(dist, 'demo'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'demo', 'hero.jpg'), 'jpeg');
    server = await startTestServer({ PORTAL_DIST: dist });
  });
  afterAll(() => server.close());

  it.each(['/demo/coaches/nadie.jpg', '/assets/nope-abc123.js', '/assets/nope.css', '/favicon.ico', '/robots.txt', '/coach/1.webp'])('%s answers 404, not the app', async (url) => {
    const res = await server.app.inject({ method: 'GET', url, headers: { accept: 'image/avif,image/webp,*/*' } });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });

  it('HEAD of a missing file is a 404 too', async () => {
    const res = await server.app.inject({ method: 'HEAD', url: '/demo/coaches/nadie.jpg' });
    expect(res.statusCode).toBe(404);
  });

  it('serves the files that are there', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/demo/hero.jpg' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('jpeg');
  });

  it.each(['/', '/paquetes', '/coach/1', '/mystudio/creditos', '/checkout/3', '/gracias/12', '/terminos-y-condiciones'])('the app route %s still gets the app', async (url) => {
    const res = await server.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
  });
});
