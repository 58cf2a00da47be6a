import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin, UserConfig } from 'vite';
import { deskDevServicePort } from './src/service/process-protocol.ts';

const here = import.meta.dirname;

/**
 * The built screens may run only their own scripts and talk only to their own
 * origin (the desk router). Added at build time only: the dev server's React
 * refresh preamble is an inline script.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
].join('; ');

function csp(): Plugin {
  return {
    name: 'estudio-desk-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy }, injectTo: 'head-prepend' }],
  };
}

/**
 * The renderer's Vite settings, shared by electron-vite (the Electron window)
 * and `desk:web`; both serve the built screens over HTTP from the desk
 * service (decision 134). base './': the page works under any path.
 */
export function rendererConfig(outDir: string): UserConfig {
  return {
    root: path.join(here, 'src/renderer'),
    base: './',
    plugins: [react(), csp()],
    css: { postcss: here },
    // A development run (electron-vite dev): the screens come from Vite and the desk service answers the rest, the
    // router, uploads and the key's link, so the page and the router share one origin as they do when built.
    server: { proxy: Object.fromEntries(['/trpc', '/upload', '^/\\?llave='].map((route) => [route, { target: `http://127.0.0.1:${deskDevServicePort}` }])) },
    build: {
      outDir,
      emptyOutDir: true,
      // electron-vite leaves bundles unminified by default; the screens parse faster minified.
      minify: true,
      chunkSizeWarningLimit: 900,
      rollupOptions: { input: path.join(here, 'src/renderer/index.html') },
    },
  };
}
