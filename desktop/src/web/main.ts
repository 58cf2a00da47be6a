import path from 'node:path';
import { builtFrom, deskScreenSources, recordStamp, repositoryRoot, sourceStamp } from '../../../scripts/source-stamp.mjs';
import { startDeskWeb } from './server.ts';

/**
 * `npm run desk:web`: the desk service in a Node process, its screens and its
 * router on http://127.0.0.1:DESK_PORT. The screens are built when their
 * build is missing or was made from other sources (scripts/source-stamp.mjs);
 * `--rebuild` rebuilds them anyway (DESK_WEB_DIST picks where, for parallel runs).
 * The desk answers only the page opened with the link printed below, which
 * carries this run's key (DESK_WEB_KEY fixes it, for scripts that open the
 * page themselves, such as the e2e specs).
 */
const deskRoot = path.resolve(import.meta.dirname, '../..');
const distDir = path.resolve(process.env.DESK_WEB_DIST ?? path.join(deskRoot, 'out/web'));
const rebuild = process.argv.includes('--rebuild');

// From the repository's root, where the sources' paths are (from the desk's folder they matched nothing, and a
// changed screen was never built again).
const sources = sourceStamp(repositoryRoot, deskScreenSources);
if (rebuild || !builtFrom(distDir, sources)) {
  const { build } = await import('vite');
  const { rendererConfig } = await import('../../renderer.config.ts');
  console.log('Construyendo la pantalla de recepción…');
  await build({ ...rendererConfig(distDir), logLevel: 'warn', configFile: false });
  recordStamp(distDir, sources);
}

const port = Number(process.env.DESK_PORT ?? 3400);
const key = process.env.DESK_WEB_KEY?.trim() || undefined;
const web = await startDeskWeb({ port, distDir, ...(key ? { key } : {}) });
console.log(`Recepción lista. Ábrela con este enlace (solo sirve en esta ejecución): ${web.url}`);
console.log(`Servidor: ${web.desk.serverAddress().url ?? '(se pide en la pantalla de inicio)'}, datos: ${web.desk.config.dataDir}`);

const stop = async () => {
  await web.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
