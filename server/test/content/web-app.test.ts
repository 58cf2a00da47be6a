import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { withSettings } from '../support/reservations-fixtures.ts';

/**
 * The installable portal (decision 106): the manifest names the studio and
 * opens the account area; its icons are PNGs of the sizes it says, made from
 * the studio's favicon, or the studio's initial on its colour.
 */
describe('the web app manifest and its icons', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'estudio-portal-'));
    mkdirSync(path.join(dist, 'marca'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
    // A favicon of one colour, so the icon's centre says it was drawn from it.
    writeFileSync(path.join(dist, 'marca', 'icono.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#00ff00"/></svg>');
    server = await startTestServer({ PORTAL_DIST: dist });
  });
  afterAll(() => server.close());

  const icon = async (file: string) => {
    const res = await server.app.inject({ method: 'GET', url: `/app/${file}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const image = sharp(res.rawPayload);
    const { width, height } = await image.metadata();
    const centre = await image.extract({ left: Math.floor(width! / 2), top: Math.floor(height! / 2), width: 1, height: 1 }).raw().toBuffer();
    const corner = await sharp(res.rawPayload).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    return { width, height, centre: [...centre.subarray(0, 3)], corner: [...corner.subarray(0, 3)] };
  };

  it("names the studio, opens on the account area, standalone, with icons of 192 and 512 px (one maskable)", async () => {
    const res = await server.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = res.json();
    expect(manifest).toMatchObject({ name: 'Estudio Demo', start_url: '/mystudio', scope: '/', display: 'standalone', lang: 'es-MX', theme_color: '#d6336c' });
    expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const { src, sizes } of manifest.icons as { src: string; sizes: string }[]) {
      const { width, height } = await icon(src.replace('/app/', ''));
      expect(`${width}x${height}`).toBe(sizes);
    }
  });

  it("draws the studio's favicon on white, and on the studio's colour inside the safe zone when maskable", async () => {
    await withSettings(server.db, { favicon: '/marca/icono.svg' }, async () => {
      const plain = await icon('icono-192.png');
      expect(plain.centre).toEqual([0, 255, 0]);
      expect(plain.corner).toEqual([255, 255, 255]);
      const maskable = await icon('icono-maskable-512.png');
      expect(maskable.centre).toEqual([0, 255, 0]);
      expect(maskable.corner).toEqual([0xd6, 0x33, 0x6c]);
    });
  });

  it("gives the studio's initial on its colour for a favicon it cannot read, and never reads outside its folders", async () => {
    for (const favicon of ['https://cdn.example.com/icono.png', '/../../../etc/passwd', '/files/../../secreto.svg', '/marca/no-existe.svg']) {
      await withSettings(server.db, { favicon }, async () => {
        const drawn = await icon('icono-512.png');
        expect(drawn.corner, favicon).toEqual([0xd6, 0x33, 0x6c]);
      });
    }
    const unknown = await server.app.inject({ method: 'GET', url: '/app/otro.png' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('La ruta solicitada no existe.');
  });
});
