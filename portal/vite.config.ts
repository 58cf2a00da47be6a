import { constants as zlib } from 'node:zlib';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

const apiOrigin = process.env.API_ORIGIN ?? 'http://127.0.0.1:3000';

/**
 * A .br and a .gz beside every text file of the build, once, at the highest
 * levels; the server hands them to browsers that accept them (@fastify/static's
 * preCompressed) instead of compressing on every request.
 */
const precompress = compression({
  threshold: 1024,
  algorithms: [defineAlgorithm('gzip', { level: 9 }), defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } })],
});

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress],
  server: {
    port: 5173,
    proxy: {
      '/api': apiOrigin,
      '/trpc': apiOrigin,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 700,
  },
});
