import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin, UserConfig } from 'vite';

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
 * and `desk:web` (the same screens served over HTTP to a browser).
 * base './': the Electron window loads it from file://.
 */
export function rendererConfig(outDir: string): UserConfig {
  return {
    root: path.join(here, 'src/renderer'),
    base: './',
    plugins: [react(), csp()],
    css: { postcss: here },
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
