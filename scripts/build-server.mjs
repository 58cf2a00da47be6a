#!/usr/bin/env node
// Bundles the server to plain JavaScript for production (`npm run build`):
// server/dist/main.mjs (the server) and server/dist/cli.mjs (the operator's
// commands: first owner, backup, restore). The workspace packages (@estudio/*,
// TypeScript sources) are compiled into the bundle; every package from
// node_modules stays an import, so native parts (sharp, PGlite's wasm) load as
// they do in development. Production runs `node server/dist/main.mjs`: no
// TypeScript loader at run time (decision 073).
import { rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `--outdir .tmp/<name>` builds elsewhere (the tests); it must sit two levels below the repository,
// as server/dist does, because the server finds portal/dist and db/migrations from its own file.
const { values } = parseArgs({ options: { outdir: { type: 'string', default: join('server', 'dist') } } });
const outdir = resolve(root, values.outdir);
if (relative(root, outdir).split(/[\\/]/).length !== 2) {
  console.error(`--outdir debe estar dos niveles debajo del repositorio (como server/dist): ${values.outdir}`);
  process.exit(2);
}

/** node_modules stay outside the bundle; the workspace's own packages go in. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@estudio/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
const result = await build({
  entryPoints: { main: join(root, 'server', 'src', 'main.ts'), cli: join(root, 'server', 'src', 'cli.ts') },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  // No shared chunks: config.ts finds the repository's folders two levels above its bundle file (server/dist).
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  // Names stay: stack traces and error.name checks read them.
  keepNames: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  plugins: [externalDependencies],
});
const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.mjs'))
  .reduce((sum, [, out]) => sum + out.bytes, 0);
console.log(`Servidor compilado en ${relative(root, outdir)} (${(bytes / 1024).toFixed(0)} KB de JavaScript, ${Math.round(performance.now() - started)} ms).`);
