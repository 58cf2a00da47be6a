import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm install`, the README's first command, on a machine that cannot
 * download Electron's binary (decision 019). A small project installs this
 * repository's electron package (packed from node_modules, its own
 * dependencies resolved from the repository through NODE_PATH, so no
 * registry is needed) with electron's install script approved, as npm 10
 * runs every script, and the download pointed at a closed port.
 */
const root = path.resolve(import.meta.dirname, '../..');
let work: string;
let tarball: string;

const blockedEnv = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: path.join(root, 'node_modules'), ELECTRON_MIRROR: 'http://127.0.0.1:9/', ELECTRON_GET_NO_PROGRESS: '1' };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  // A test started by npm (npx vitest, npm test) passes its configuration down as npm_config_*: the projects read only their own.
  for (const key of Object.keys(env)) if (key.toLowerCase().startsWith('npm_config_')) delete env[key];
  return env;
};

function project(name: string, withRepoNpmrc: boolean): string {
  const dir = path.join(work, name);
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: `install-${name}`, version: '1.0.0', private: true, devDependencies: { electron: `file:${tarball}` }, allowScripts: { electron: true } }),
  );
  if (withRepoNpmrc) cpSync(path.join(root, '.npmrc'), path.join(dir, '.npmrc'));
  return dir;
}

const npmInstall = (dir: string) =>
  spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund'], {
    cwd: dir,
    env: { ...blockedEnv(), electron_config_cache: path.join(dir, '.electron-cache') },
    encoding: 'utf8',
    timeout: 240_000,
  });

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'desk-install-'));
  const copy = path.join(work, 'electron');
  cpSync(path.join(root, 'node_modules/electron'), copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules${path.sep}electron${path.sep}node_modules`) && !src.endsWith(`${path.sep}dist`) });
  rmSync(path.join(copy, 'path.txt'), { force: true });
  const manifest = JSON.parse(readFileSync(path.join(copy, 'package.json'), 'utf8')) as { dependencies?: unknown };
  delete manifest.dependencies;
  writeFileSync(path.join(copy, 'package.json'), JSON.stringify(manifest));
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: copy, encoding: 'utf8' }).trim().split('\n').pop() ?? '';
  tarball = path.join(work, packed);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm install without access to the Electron download', () => {
  it("fails the whole install when electron's script runs (the reported problem: without the repository's .npmrc)", { timeout: 300_000 }, () => {
    const result = npmInstall(project('sin-npmrc', false));
    expect(result.status).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(/electron|install\.js/i);
  });

  it(".npmrc keeps it from running: the install succeeds and the electron package (its types) is there without the binary", { timeout: 300_000 }, () => {
    const dir = project('con-npmrc', true);
    const result = npmInstall(dir);
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'node_modules/electron/electron.d.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'node_modules/electron/dist'))).toBe(false);
  });

  it('`npm run desk` fetches the binary when it is first needed, and says in Spanish what to do when it cannot', { timeout: 300_000 }, async () => {
    const dir = path.join(work, 'con-npmrc');
    const { ensureElectron, electronBinary } = (await import(path.join(root, 'scripts/desk.mjs'))) as {
      ensureElectron: (requireFrom: NodeJS.Require, env: NodeJS.ProcessEnv) => boolean;
      electronBinary: (requireFrom: NodeJS.Require) => string | null;
    };
    const requireFrom = createRequire(path.join(dir, 'package.json'));
    expect(electronBinary(requireFrom)).toBeNull();
    const messages: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => messages.push(args.join(' '));
    try {
      expect(ensureElectron(requireFrom, { ...blockedEnv(), electron_config_cache: path.join(dir, '.electron-cache') })).toBe(false);
    } finally {
      console.error = error;
    }
    expect(messages.join('\n')).toContain('No se pudo descargar Electron');
    expect(messages.join('\n')).toContain('npm run desk:web');
  });

  it('the repository runs no dependency install script, and CI keeps installing with npm ci', () => {
    const config = execFileSync('npm', ['config', 'get', 'ignore-scripts'], { cwd: root, encoding: 'utf8' }).trim();
    expect(config).toBe('true');
    expect(readFileSync(path.join(root, '.ci/run'), 'utf8')).toMatch(/npm ci/);
  });
});
