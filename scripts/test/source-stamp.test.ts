import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtFrom, deskScreenSources, portalSources, recordStamp, repositoryRoot, sourceStamp } from '../source-stamp.mjs';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function repository(): string {
  const root = mkdtempSync(join(tmpdir(), 'estudio-stamp-'));
  made.push(root);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('config', 'user.email', 'prueba@estudio.demo');
  git('config', 'user.name', 'Prueba');
  mkdirSync(join(root, 'portal'));
  writeFileSync(join(root, 'portal', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'otro.ts'), 'export const b = 1;\n');
  writeFileSync(join(root, '.gitignore'), 'dist/\n');
  git('add', '.');
  git('commit', '-qm', 'inicio');
  return root;
}

describe('the stamp of what a build was made from', () => {
  it('changes with a committed, an uncommitted or an untracked change under its paths, and only then', () => {
    const root = repository();
    const first = sourceStamp(root, ['portal']);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(sourceStamp(root, ['portal'])).toBe(first);
    // Outside its paths, and ignored files: the same build.
    writeFileSync(join(root, 'otro.ts'), 'export const b = 2;\n');
    mkdirSync(join(root, 'portal', 'dist'));
    writeFileSync(join(root, 'portal', 'dist', 'x.js'), 'x');
    expect(sourceStamp(root, ['portal'])).toBe(first);
    // An edit not committed yet.
    writeFileSync(join(root, 'portal', 'a.ts'), 'export const a = 2;\n');
    const edited = sourceStamp(root, ['portal']);
    expect(edited).not.toBe(first);
    // A new file nobody added yet.
    writeFileSync(join(root, 'portal', 'nuevo.ts'), 'export const c = 3;\n');
    const added = sourceStamp(root, ['portal']);
    expect(added).not.toBe(edited);
    // Committed, the same content is the same stamp.
    execFileSync('git', ['add', '.'], { cwd: root });
    execFileSync('git', ['commit', '-qm', 'cambios'], { cwd: root });
    expect(sourceStamp(root, ['portal'])).toBe(added);
  });

  it('a build counts as made from the sources only with its index and the same stamp beside it', () => {
    const root = repository();
    const dist = join(root, 'dist');
    mkdirSync(dist);
    const stamp = sourceStamp(root, ['portal']);
    expect(builtFrom(dist, stamp)).toBe(false);
    writeFileSync(join(dist, 'index.html'), '<!doctype html>');
    expect(builtFrom(dist, stamp)).toBe(false);
    recordStamp(dist, stamp);
    expect(builtFrom(dist, stamp)).toBe(true);
    expect(builtFrom(dist, 'otro')).toBe(false);
    // Outside a checkout there is no stamp: always build.
    expect(sourceStamp(tmpdir(), ['portal'])).toBeNull();
    expect(builtFrom(dist, null)).toBe(false);
  });
});

describe("this repository's builds", () => {
  it('name files that exist, from the repository’s root, so a changed screen or portal is built again', () => {
    for (const sources of [deskScreenSources, portalSources]) {
      const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...sources], { cwd: repositoryRoot }).toString();
      // The renderer's or the portal's own files, and core's: a stamp of package.json alone never changes with a screen.
      expect(listed.split('\n').filter((f) => f.startsWith('core/')).length, sources.join(' ')).toBeGreaterThan(10);
      expect(listed.split('\n').filter((f) => f.startsWith(sources[0]!)).length, sources.join(' ')).toBeGreaterThan(10);
    }
  });
});
