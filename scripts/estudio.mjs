#!/usr/bin/env node
// The operator's commands (`npm run estudio -- owner --email …`, `backup`, `restore`):
// the built ones (server/dist/cli.mjs) under NODE_ENV=production, the
// TypeScript sources through tsx otherwise, with this shell's environment.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'server', 'dist', 'cli.mjs');
const production = process.env.NODE_ENV === 'production';
if (production && !existsSync(built)) {
  console.error('Falta la compilación (server/dist/cli.mjs). Corre primero: npm run build');
  process.exit(1);
}
const args = production ? [built] : ['--import', 'tsx', join(root, 'server', 'src', 'cli.ts')];
const result = spawnSync(process.execPath, [...args, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
