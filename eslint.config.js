import tseslint from 'typescript-eslint';

/**
 * The layers' boundaries (decision 096): an import that runs upward fails the
 * lint. `core` is pure rules; services return data and never reach the web
 * framework, tRPC, the HTTP layer or the previous panel's adapter; the portal,
 * the desk's screens and the desk's sync client see the server only as types.
 */
const restrict = (files, patterns) => ({ files, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } });

const nodeApis = { regex: '^node:', message: 'core holds pure rules: no Node API or I/O here.' };
const serverOnlyAsTypes = {
  group: ['@estudio/server', '@estudio/server/*'],
  allowTypeImports: true,
  message: 'The server is reached through its API; import its types only (import type).',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/out/**', '.tmp/**', 'data/**', 'db/migrations/**', '**/test-results/**', '**/playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  restrict(['core/src/**'], [
    nodeApis,
    {
      group: ['@estudio/db', '@estudio/db/*', '@estudio/server', '@estudio/server/*', '@estudio/sync', '@estudio/sync/*', 'drizzle-orm', 'drizzle-orm/*', 'postgres', 'fastify', '@electric-sql/*'],
      message: 'core holds pure rules: no database, server or I/O here.',
    },
  ]),
  restrict(['db/src/**'], [
    { group: ['@estudio/server', '@estudio/server/*', '@estudio/sync', '@estudio/sync/*', 'fastify', '@trpc/*'], message: 'The database package knows no server, sync or transport.' },
  ]),
  restrict(['server/src/services/**', 'server/src/providers/**'], [
    { regex: '(^|/)(routers|http|legacy)/', message: 'A service returns data: routes, the HTTP layer and the previous panel’s shapes import services, never the other way.' },
    { regex: '(^|/)(trpc|app|router|rest-routes|openapi)\\.ts$', message: 'A service never imports the transport (tRPC, the app, REST routes).' },
    { group: ['fastify', '@fastify/*', '@trpc/*'], message: 'A service never imports the web framework or tRPC (its logger is services/log.ts).' },
  ]),
  restrict(['portal/src/**'], [
    serverOnlyAsTypes,
    { group: ['@estudio/db', '@estudio/db/*', '@estudio/sync', '@estudio/sync/*'], message: 'The portal runs in the browser: no database or sync here.' },
    { regex: '^node:', message: 'The portal runs in the browser: no Node API here.' },
  ]),
  restrict(['desktop/src/renderer/**'], [
    serverOnlyAsTypes,
    { group: ['@estudio/db', '@estudio/db/*', '@estudio/sync', '@estudio/sync/*'], message: 'The desk’s screens ask the desk service; the replica and sync live behind it.' },
    { regex: '^node:', message: 'The desk’s screens run in the renderer: no Node API here.' },
  ]),
  restrict(['sync/src/**'], [serverOnlyAsTypes]),
);
