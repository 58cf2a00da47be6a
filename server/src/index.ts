export { buildServer } from './app.ts';
export { loadConfig, type Config } from './config.ts';
export { appRouter, type AppRouter } from './router.ts';
