import path from 'node:path';
import { constants as zlib } from 'node:zlib';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

const apiOrigin = process.env.API_ORIGIN ?? 'http://127.0.0.1:3000';
const here = import.meta.dirname;

/**
 * A .br and a .gz beside every text file of the build, once, at the highest
 * levels; the server hands them to browsers that accept them (@fastify/static's
 * preCompressed) instead of compressing on every request.
 */
const precompress = compression({
  threshold: 1024,
  algorithms: [defineAlgorithm('gzip', { level: 9 }), defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } })],
});

/** Where the server finds the pre-render bundle, inside the portal's build (a dot folder: @fastify/static does not serve it). */
export const ssrDir = '.ssr';

/**
 * After the browser's build, the server's: src/entry-server.tsx with
 * everything bundled in, into <outDir>/.ssr/entry-server.mjs, so one
 * `vite build` (and `npm start -- --rebuild`) writes both (decision 026).
 */
function serverBundle(): Plugin {
  let outDir = '';
  return {
    name: 'estudio-server-bundle',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      // Always React's production build on the server (its development build renders several times slower):
      // JSX compiled for it and process.env.NODE_ENV fixed below, whatever NODE_ENV the build ran under (the e2e run's is 'test').
      const nodeEnv = process.env.NODE_ENV;
      process.env.NODE_ENV = 'production';
      try {
        await build({
          configFile: path.join(here, 'vite.config.ts'),
          mode: 'production',
          logLevel: 'warn',
          build: { ssr: 'src/entry-server.tsx', outDir: path.join(outDir, ssrDir), emptyOutDir: true },
        });
      } finally {
        if (nodeEnv === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = nodeEnv;
      }
    },
  };
}

/**
 * In the server's bundle, what needs a browser answers for the page being
 * rendered: '@mantine/hooks' media queries for the width rendered for
 * (src/ssr/media-query.ts), DOMPurify over one window of jsdom (src/ssr/dompurify.ts).
 */
function serverStandIns(): Plugin {
  const standIns: Record<string, string> = {
    '@mantine/hooks': path.join(here, 'src', 'ssr', 'media-query.ts'),
    dompurify: path.join(here, 'src', 'ssr', 'dompurify.ts'),
  };
  return {
    name: 'estudio-server-stand-ins',
    enforce: 'pre',
    resolveId(source, importer) {
      const standIn = standIns[source];
      // The stand-in itself imports the real package.
      return standIn && importer !== standIn ? standIn : null;
    },
  };
}

/**
 * Mantine's ScrollArea imports one hook from '@floating-ui/react'; in the
 * browser's build it gets the same hook from src/shims instead, so pages
 * without a menu, select or tooltip load no floating-ui (decision 031).
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  const shim = path.join(here, 'src', 'shims', 'floating-ui-merge-refs.ts');
  return {
    name: 'estudio-scroll-area-without-floating-ui',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === '@floating-ui/react' && importer && /[\\/]ScrollArea[\\/]ScrollArea\.mjs$/.test(importer) ? shim : null;
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  root: here,
  plugins: isSsrBuild ? [react(), serverStandIns()] : [react(), scrollAreaWithoutFloatingUi(), precompress, serverBundle()],
  server: {
    port: 5173,
    proxy: {
      '/api': apiOrigin,
      '/trpc': apiOrigin,
    },
  },
  // The server imports the bundle from wherever the build lies: nothing is left to resolve from node_modules, but jsdom
  // (the server's DOM for DOMPurify, src/ssr/dompurify.ts), which reads its own files at run time and is not bundled.
  ssr: { noExternal: true, external: ['jsdom'], target: 'node' },
  // React's production build in the server's bundle, whatever NODE_ENV the server runs with.
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: isSsrBuild
    ? { rollupOptions: { output: { entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' } } }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        chunkSizeWarningLimit: 700,
        // The server reads it to preload each route's chunks and styles (decision 026).
        manifest: true,
        rolldownOptions: {
          output: {
            codeSplitting: {
              // floating-ui (15 KiB gzip: menus, selects, tooltips) apart from the small helpers every page needs
              // (useMergedRef, the direction context): left to the default split they shared one chunk, and every
              // page downloaded floating-ui for 500 bytes of it (decision 031).
              includeDependenciesRecursively: false,
              groups: [{ name: 'floating-ui', test: /node_modules[\\/]@floating-ui[\\/]/ }],
            },
          },
        },
      },
}));
