import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderedPage } from '../../src/http/portal-shell/portal-pages.ts';
import { login, startTestServer, type TestServer } from '../support/helpers.ts';

const template = `<!doctype html>
<html lang="es-MX">
  <head>
    <meta name="theme-color" content="#ffffff" />
    <link rel="icon" id="app-favicon" href="/demo/favicon.svg" />
    <title>Estudio</title>
    <link rel="preload" href="/api/appconfig" as="fetch" crossorigin="anonymous" />
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const manifest = {
  // As the portal builds it: a small entry (src/boot.ts) that imports the app when it starts (decision 036).
  'index.html': { file: 'assets/index-abc.js', isEntry: true, dynamicImports: ['src/main.tsx'] },
  'src/main.tsx': { file: 'assets/main-abc.js', isDynamicEntry: true, imports: ['_shared.js', 'index.html'], css: ['assets/main-abc.css'] },
  '_shared.js': { file: 'assets/shared-abc.js' },
  'src/pages/public/LandingPage.tsx': { file: 'assets/LandingPage-abc.js', imports: ['_shared.js', '_sections.js'], css: ['assets/sections-abc.css'] },
  '_sections.js': { file: 'assets/sections-abc.js' },
};

// A stand-in for the portal's server bundle (portal/src/entry-server.tsx): it renders '/' with what the queries answer.
const bundle = `
export const pageStateId = 'portal-state';
export const pageModules = (pathname) => (pathname === '/' ? ['src/pages/public/LandingPage.tsx'] : []);
export async function prerenderPage({ url, appconfig, viewportWidth, query }) {
  if (new URL(url, 'http://x').pathname !== '/') return null;
  const home = await query('instructors.home', undefined);
  const name = appconfig.config.find((c) => c.key === 'business_name').value;
  // Counts the renders, so a test can tell a page sent from memory from one rendered again.
  globalThis.portalRenders = (globalThis.portalRenders ?? 0) + 1;
  return {
    html: '<section data-section="hero"><h1>' + name + '</h1><p>' + viewportWidth + '</p><p>' + home.instructors.map((i) => i.name).join(',') + '</p><p data-render="' + globalThis.portalRenders + '"></p></section>',
    // A page that names itself (usePageTitle) gets that title; one that names none, the studio's name.
    title: new URL(url, 'http://x').searchParams.has('titulo') ? 'Inicio <de> ' + name : null,
    queries: { mutations: [], queries: [{ queryKey: [['instructors', 'home'], { type: 'query' }], state: { data: home } }] },
  };
}
`;

/**
 * Decision 026: every page carries the studio's configuration, its route's
 * chunks are preloaded from the manifest, and the public pages come rendered
 * with the studio's data (the portal's server bundle; a stand-in here).
 */
describe('portal pages', () => {
  let server: TestServer;

  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'estudio-portal-'));
    mkdirSync(path.join(dist, '.vite'));
    mkdirSync(path.join(dist, '.ssr'));
    writeFileSync(path.join(dist, 'index.html'), template);
    writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(path.join(dist, '.ssr', 'entry-server.mjs'), bundle);
    server = await startTestServer({ PORTAL_DIST: dist });
  });
  afterAll(() => server.close());

  const state = (html: string) => JSON.parse(/<script type="application\/json" id="portal-state">(.*?)<\/script>/s.exec(html)![1]!) as {
    appconfig: { config: { key: string; value: string }[] };
    queries?: unknown;
  };

  it('the landing comes rendered with the seeded coaches, its state, its styles in the head and its modules for later', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    expect(html).toContain('<section data-section="hero"><h1>Estudio Demo</h1><p>1366</p><p>Valeria,Rodrigo,Fernanda,Daniela,Emilio</p>');
    expect(html).toContain('<title>Estudio Demo</title>');
    expect(html).toContain('<html lang="es-MX" data-mantine-color-scheme="light">');
    expect(html).toContain('<meta name="theme-color" content="#d6336c"');
    expect(html).not.toContain('href="/api/appconfig"');
    // The hero's picture is in the page itself (decision 049): no preload of its original beside the copy the screen needs.
    expect(html).not.toContain('rel="preload" as="image"');
    // The page's pictures come before any module: the app's and the route's are named for boot.ts to ask for after
    // the page's load event (decision 036), the entry itself excepted.
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('<div id="root" data-modules="/assets/main-abc.js /assets/shared-abc.js /assets/LandingPage-abc.js /assets/sections-abc.js">');
    expect(html.match(/index-abc\.js/g)).toHaveLength(1);
    // The styles of the app and of the route block the first paint, as a rendered page needs.
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/main-abc.css">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/sections-abc.css">');
    const page = state(html);
    expect(page.appconfig.config).toContainEqual({ key: 'business_name', value: 'Estudio Demo' });
    expect(JSON.stringify(page.queries)).toContain('/demo/coaches/valeria.jpg');
  });

  it("carries the page's own title when it names one, escaped, and the studio's name otherwise", async () => {
    const named = await server.app.inject({ method: 'GET', url: '/?titulo=1' });
    expect(named.body).toContain('<title>Inicio &lt;de&gt; Estudio Demo</title>');
    const unnamed = await server.app.inject({ method: 'GET', url: '/' });
    expect(unnamed.body).toContain('<title>Estudio Demo</title>');
  });

  it('renders for a phone when a phone asks', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/', headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) Mobile Safari/537.36' } });
    expect(res.body).toContain('<p>390</p>');
  });

  it('a page that is not pre-rendered carries the configuration, nothing rendered, and its modules preloaded at once', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/mystudio/creditos' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/main-abc.js">');
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/shared-abc.js">');
    expect(res.body).toContain('<link rel="stylesheet" crossorigin href="/assets/main-abc.css">');
    const page = state(res.body);
    expect(page.queries).toBeUndefined();
    expect(page.appconfig.config.length).toBeGreaterThan(10);
  });

  it("no '<' of the studio's texts can close the state's script early", async () => {
    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    const put = await server.app.inject({
      method: 'PUT',
      url: '/api/appconfig',
      headers: { authorization: `Bearer ${admin}` },
      payload: { config: [{ key: 'tagline', value: '</script><script>alert(1)</script>' }] },
    });
    expect(put.statusCode).toBe(200);
    // The committed write forgot the page rendered before it (its notification reaches the server a moment after).
    await expect.poll(async () => state((await server.app.inject({ method: 'GET', url: '/' })).body).appconfig.config).toContainEqual({ key: 'tagline', value: '</script><script>alert(1)</script>' });
    const res = await server.app.inject({ method: 'GET', url: '/' });
    expect(res.body).not.toContain('</script><script>alert(1)');
  });

  it("a stranger's writes, refused or not about the pages, never throw the rendered pages away; a change of what they show does", async () => {
    const renderOf = (html: string) => Number(/data-render="(\d+)"/.exec(html)?.[1]);
    const first = renderOf((await server.app.inject({ method: 'GET', url: '/' })).body);
    const cliente = (await login(server.app, 'cliente@estudio.demo')).idToken;
    // Well inside FRESH_MS (30 s), after which a page is rendered again anyway.
    for (let i = 0; i < 10; i++) {
      await server.app.inject({ method: 'POST', url: '/nada' });
      await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nadie@correo.mx', password: 'x' } });
      await server.app.inject({ method: 'PUT', url: '/api/customer', headers: { authorization: `Bearer ${cliente}` }, payload: { instagram: `@mariana${i}` } });
    }
    expect(renderOf((await server.app.inject({ method: 'GET', url: '/' })).body)).toBe(first);

    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    await server.app.inject({ method: 'PUT', url: '/api/appconfig', headers: { authorization: `Bearer ${admin}` }, payload: { config: [{ key: 'tagline', value: 'Muévete con nosotros' }] } });
    await expect.poll(async () => renderOf((await server.app.inject({ method: 'GET', url: '/' })).body)).toBeGreaterThan(first);
  });

  it('is sent compressed to a browser that accepts it', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toContain('<h1>Estudio Demo</h1>');
  });

  it('a kept page is compressed once per encoding, whoever asks next', () => {
    const page = new RenderedPage('<h1>Estudio Demo</h1>'.repeat(50));
    const first = page.bodyFor('gzip, deflate, br');
    expect(first.encoding).toBe('br');
    expect(page.bodyFor('br').body).toBe(first.body);
    expect(brotliDecompressSync(first.body as Buffer).toString()).toBe(page.html);
    expect(page.bodyFor('gzip').encoding).toBe('gzip');
    expect(page.bodyFor('identity')).toEqual({ body: page.html, encoding: null });
  });
});
