import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { rendererConfig } from './renderer.config.ts';

const here = import.meta.dirname;

/** The workspace packages are TypeScript sources: they are bundled, not loaded from node_modules at run time. */
const workspacePackages = ['@estudio/core', '@estudio/db', '@estudio/sync'];

/**
 * PGlite loads its wasm and data files from beside its own module, so it
 * cannot be bundled: it stays external, and electron-builder.yml copies it
 * into the package. Everything else the workspace packages import (drizzle,
 * eventsource...) is bundled into out/main.
 */
const runtimeLibraries = ['@electric-sql/pglite'];

/**
 * electron-vite keeps every `dependencies` entry external by default, and
 * electron-builder.yml ships only PGlite: anything else the main process
 * imports (tRPC, trpc-electron, dayjs, electron-updater...) is bundled.
 * desktop/test/packaging.test.ts checks the built bundle's imports.
 */
const bundledDependencies = Object.keys(
  (JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
).filter((name) => !runtimeLibraries.includes(name));

/**
 * @estudio/db finds its migrations at '../migrations' from its module; bundled
 * into out/main/index.js that is out/migrations, so the build puts a copy there
 * (electron-builder packages out/**).
 */
function copyMigrations(): Plugin {
  return {
    name: 'estudio-copy-migrations',
    apply: 'build',
    closeBundle() {
      cpSync(path.join(here, '../db/migrations'), path.join(here, 'out/migrations'), { recursive: true });
    },
  };
}

export default defineConfig({
  main: {
    plugins: [copyMigrations()],
    build: {
      outDir: 'out/main',
      externalizeDeps: { exclude: [...workspacePackages, ...bundledDependencies], include: runtimeLibraries },
      // The service runs in its own process (decision 134): out/main/service-process.js beside the main process.
      rollupOptions: { input: { index: path.join(here, 'src/main/index.ts'), 'service-process': path.join(here, 'src/web/service-process.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can only require 'electron': bundle the bridge and emit CommonJS.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: path.join(here, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig(path.join(here, 'out/renderer')),
});
