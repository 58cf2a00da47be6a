import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { faviconOf, isStudioPublished, portalPageOpensBeforePublishing, studioPublishedKey } from '@estudio/core';
import { comingSoonPage, type ComingSoonStudio } from './coming-soon-page.ts';

/** The server bundle the portal's build writes into <dist>/.ssr (portal/src/entry-server.tsx). */
export interface PortalServerBundle {
  pageStateId: string;
  pageModules(pathname: string): string[];
  prerenderPage(request: {
    url: string;
    appconfig: AppConfigAnswer;
    viewportWidth: number;
    query: (procedure: string, input: unknown) => Promise<unknown>;
  }): Promise<PrerenderedPage | null>;
}

/** A page as the bundle rendered it: its HTML, the queries' answers and what the hydration renders with, its title. */
interface PrerenderedPage {
  html: string;
  queries: unknown;
  rendered: unknown;
  title?: string | null;
}

export interface AppConfigAnswer {
  config: { key: string; value: string }[];
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * A page and its compressed forms. A kept page is sent to many visitors: each
 * form is compressed once, on the first request that takes it (a landing is
 * ~150 KB of HTML and data, ~17 KB sent).
 */
export class RenderedPage {
  private readonly compressed = new Map<'br' | 'gzip', Buffer>();

  constructor(readonly html: string) {}

  /** The body for a request's Accept-Encoding, and its Content-Encoding (null: sent as it is). */
  bodyFor(acceptEncoding: string): { body: string | Buffer; encoding: 'br' | 'gzip' | null } {
    const encoding = /\bbr\b/.test(acceptEncoding) ? 'br' : /\bgzip\b/.test(acceptEncoding) ? 'gzip' : null;
    if (!encoding) return { body: this.html, encoding };
    let body = this.compressed.get(encoding);
    if (!body) {
      body = encoding === 'br' ? brotliCompressSync(this.html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(this.html, { level: 6 });
      this.compressed.set(encoding, body);
    }
    return { body, encoding };
  }
}

/** What a page needs from the server for one request: the studio's configuration and anonymous queries. */
export interface PageSource {
  appconfig(): Promise<AppConfigAnswer>;
  /** What "Próximamente" shows while the studio is not published: read only then (decision 129). */
  comingSoon(): Promise<ComingSoonStudio>;
  query(procedure: string, input: unknown): Promise<unknown>;
  userAgent: string | undefined;
  log: FastifyBaseLogger;
}

/** A phone's viewport or a desktop's, for the media queries of a pre-render (the User-Agent is all the first request says). */
export function viewportWidthFor(userAgent: string | undefined): number {
  return /Mobi|Android|iPhone|iPod/i.test(userAgent ?? '') ? 390 : 1366;
}

/** How long a rendered page is sent without rendering it again (see `cached`). */
const FRESH_MS = 30_000;
/** Pages kept: the public pages, each week of the calendar asked for and the coaches, at two widths. */
const MAX_PAGES = 300;
/** The app itself in the portal's Vite manifest: a chunk of its own, imported by the entry (portal/src/boot.ts) when the app starts. */
const appModule = 'src/main.tsx';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** JSON inside <script>: no '<' may close the element early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The portal's pages as the server sends them (decision 026): index.html with
 * the studio's configuration inside (no round trip before the first render),
 * its name, colour and icon in the head, the page's route chunks and styles
 * preloaded from the Vite manifest, and for the public pages the page itself
 * rendered with the studio's data by the portal's server bundle. Without a
 * manifest or a bundle (an older build) the parts it lacks are left out; when
 * the configuration cannot be read, index.html goes as it is and the app shows
 * its own error.
 */
export async function createPortalPages(dist: string, log: FastifyBaseLogger) {
  const template = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const manifestPath = path.join(dist, '.vite', 'manifest.json');
  const manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>) : {};
  const bundlePath = path.join(dist, '.ssr', 'entry-server.mjs');
  let bundle: PortalServerBundle | null = null;
  if (existsSync(bundlePath)) {
    try {
      bundle = (await import(pathToFileURL(bundlePath).href)) as PortalServerBundle;
    } catch (error) {
      log.error({ err: error }, 'portal: no se pudo cargar el pre-render; las páginas se envían sin él');
    }
  }
  // What index.html already asks for (the entry and its imports): not repeated per page.
  const inTemplate = new Set([...template.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((m) => m[1]!));

  /** The route chunks' scripts (modulepreload) and styles of a page, with their static imports. */
  function pageAssets(modules: string[]): { scripts: string[]; styles: string[] } {
    const scripts = new Set<string>();
    const styles = new Set<string>();
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) return;
      seen.add(key);
      if (!inTemplate.has(chunk.file)) scripts.add(chunk.file);
      chunk.css?.forEach((css) => !inTemplate.has(css) && styles.add(css));
      chunk.imports?.forEach(visit);
    };
    modules.forEach(visit);
    return { scripts: [...scripts], styles: [...styles] };
  }

  /**
   * Pages already rendered, by viewport and url. A page is the same for every
   * visitor, and rendering the landing costs tens of milliseconds of CPU that
   * every visitor would wait for: a page younger than FRESH_MS is sent as it
   * is; an older one is sent too while a new one renders for the next visitor.
   * Any write to this server (a request other than GET/HEAD) forgets them all,
   * so an admin's change shows on the next visit; another server process's
   * writes show within FRESH_MS (and the browser refreshes the data it shows
   * as soon as it starts).
   */
  const cache = new Map<string, { html: Promise<RenderedPage>; at: number }>();

  function cached(url: string, source: PageSource): Promise<RenderedPage> {
    const key = `${viewportWidthFor(source.userAgent)} ${url}`;
    const entry = cache.get(key);
    const now = Date.now();
    if (entry && now - entry.at < FRESH_MS) return entry.html;
    const html = render(url, source).then((page) => new RenderedPage(page));
    const fresh = { html, at: now };
    // A failed configuration read is not kept.
    void html.then((page) => page.html === template && cache.get(key) === fresh && cache.delete(key));
    if (cache.size >= MAX_PAGES) cache.delete(cache.keys().next().value!);
    cache.delete(key);
    cache.set(key, fresh);
    return entry ? entry.html : html;
  }

  /** The page for `url` (path and query), or the bare index.html when the studio's configuration cannot be read. */
  async function render(url: string, source: PageSource): Promise<string> {
    let appconfig: AppConfigAnswer;
    try {
      appconfig = await source.appconfig();
    } catch (error) {
      source.log.error({ err: error }, 'portal: sin configuración para la página; se envía index.html');
      return template;
    }
    const config = Object.fromEntries(appconfig.config.map(({ key, value }) => [key, value]));
    const pathname = new URL(url, 'http://portal').pathname;
    // Until its owner publishes it, the studio's public pages are "Próximamente"; setting a password and signing in stay open.
    if (!isStudioPublished(config[studioPublishedKey]) && !portalPageOpensBeforePublishing(pathname)) return comingSoonPage(await source.comingSoon());
    let prerendered: PrerenderedPage | null = null;
    if (bundle) {
      try {
        prerendered = await bundle.prerenderPage({ url, appconfig, viewportWidth: viewportWidthFor(source.userAgent), query: source.query });
      } catch (error) {
        // The browser renders the page itself, as it did before pre-rendering.
        source.log.error({ err: error, url }, 'portal: el pre-render falló');
      }
    }
    // The app (main.tsx, a chunk the entry imports when it starts: portal/src/boot.ts) and the route's page.
    const { scripts, styles } = pageAssets([appModule, ...(bundle?.pageModules(pathname) ?? [])]);
    const head = [
      ...styles.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
      // A pre-rendered page asks for its modules only after its pictures (its `load` event): boot.ts reads them from the
      // root's data-modules. A page with nothing on it yet needs them at once (decision 036).
      ...(prerendered ? [] : scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)),
    ];
    const modulesLater = prerendered ? ` data-modules="${escapeHtml(scripts.map((file) => `/${file}`).join(' '))}"` : '';
    // The hero's picture is an <img fetchpriority="high"> in the rendered page (decision 049): the browser finds it there and
    // picks the copy its screen needs; a preload of the original here would fetch it as well.
    const state = { appconfig, ...(prerendered ? { queries: prerendered.queries, rendered: prerendered.rendered } : {}) };
    const stateId = bundle?.pageStateId ?? 'portal-state';
    return (
      template
        .replace('<html lang="es-MX">', '<html lang="es-MX" data-mantine-color-scheme="light">')
        // The page's own title when it names one ('Paquetes · Estudio Demo'), as its app would set it.
        .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(prerendered?.title || config.business_name || '')}</title>`)
        .replace(/(<meta name="theme-color" content=")[^"]*"/, (_, start: string) => `${start}${escapeHtml(config.primary ?? '#ffffff')}"`)
        .replace(/(<link rel="icon" id="app-favicon" href=")[^"]*"/, (_, start: string) => `${start}${escapeHtml(faviconOf({ favicon: config.favicon ?? '' }))}"`)
        // The configuration is in the page: the early fetch of it would only be wasted.
        .replace(/\s*<link rel="preload" href="\/api\/appconfig"[^>]*>/, '')
        .replace('</head>', () => `${head.join('\n    ')}\n  </head>`)
        .replace(
          '<div id="root"></div>',
          () => `<div id="root"${modulesLater}>${prerendered?.html ?? ''}</div>\n    <script type="application/json" id="${stateId}">${scriptJson(state)}</script>`,
        )
    );
  }

  return {
    /** The page for `url` (path and query) as a visitor gets it now. */
    page: cached,
    /** Forgets every page rendered so far (something was written). */
    forget: () => cache.clear(),
    prerenders: bundle !== null,
  };
}
