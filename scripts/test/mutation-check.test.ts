import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The mutation check on a tiny project of its own: a rule file, a "test"
 * that fails when the rule is wrong, and a list with a bug the test catches,
 * one it lets through, and one whose text is gone. The rule file must be
 * exactly as it was afterwards, also when the run is stopped with Ctrl-C
 * while a bug is planted, and after a SIGKILL (the next run puts it back).
 */
const script = path.join(import.meta.dirname, '..', 'mutation-check.mjs');
const rule = 'export const mayBook = (placesLeft) => placesLeft > 0;\nexport const label = "Próxima";\n';
let dir = '';

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A project whose "tests" are a node script: it exits 1 when mayBook is wrong, and waits forever when told to. */
function project(extra: string[] = []) {
  dir = mkdtempSync(path.join(tmpdir(), 'mutation-check-'));
  writeFileSync(path.join(dir, 'rule.mjs'), rule);
  writeFileSync(
    path.join(dir, 'check.mjs'),
    `import { mayBook } from './rule.mjs';
if (process.argv.includes('slow.mjs')) await new Promise(() => setInterval(() => {}, 1000));
process.exit(mayBook(1) && !mayBook(0) ? 0 : 1);
`,
  );
  writeFileSync(path.join(dir, 'slow.mjs'), '');
  writeFileSync(
    path.join(dir, 'list.mjs'),
    `export const runner = ['node', 'check.mjs'];
export const mutations = [
  { id: 'off-by-one', bug: 'books a full class', file: 'rule.mjs', find: 'placesLeft > 0', replace: 'placesLeft >= 0', tests: ['check.mjs'] },
  { id: 'label', bug: 'another label', file: 'rule.mjs', find: '"Próxima"', replace: '"No Asistí"', tests: ['check.mjs'] },
  { id: 'gone', bug: 'text that is no longer there', file: 'rule.mjs', find: 'placesLeft > 1', replace: 'true', tests: ['check.mjs'] },
  ${extra.join(',\n  ')}
];
`,
  );
  return dir;
}

/** Whether a process is still running (a killed one nobody has reaped yet is a zombie: state Z). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const run = (args: string[]) => spawnSync('node', [script, `--root=${dir}`, `--list=${path.join(dir, 'list.mjs')}`, '--no-baseline', ...args], { encoding: 'utf8' });

describe('the mutation check', () => {
  it('reports each bug caught, survived or not planted, the score, and leaves the file as it was', () => {
    project();
    const result = run([]);
    expect(result.stdout).toMatch(/✔ caught\s+off-by-one/);
    expect(result.stdout).toMatch(/✘ SURVIVED\s+label/);
    expect(result.stdout).toMatch(/∅ not planted\s+gone\s+rule\.mjs: text not found/);
    expect(result.stdout).toContain('1 caught, 1 survived, 1 not planted, 0 invalid: score 50.0 %');
    expect(result.status).toBe(1);
    expect(readFileSync(path.join(dir, 'rule.mjs'), 'utf8')).toBe(rule);
    const report = JSON.parse(readFileSync(path.join(dir, '.tmp', 'mutation-check', 'report.json'), 'utf8')) as { results: { id: string; outcome: string }[] };
    expect(report.results.map((r) => [r.id, r.outcome])).toEqual([
      ['off-by-one', 'caught'],
      ['label', 'survived'],
      ['gone', 'not planted'],
    ]);
  });

  it('--plan names what cannot be planted and runs nothing', () => {
    project();
    const result = run(['--plan']);
    expect(result.stdout).toContain('2 plantable, 1 not planted');
    expect(result.status).toBe(1);
  });

  it('text found twice is not planted: the entry must name one place', () => {
    project([`{ id: 'twice', bug: 'x', file: 'rule.mjs', find: 'export const', replace: 'const', tests: ['check.mjs'] }`]);
    expect(run(['--only=twice']).stdout).toMatch(/not planted\s+twice.*more than once/);
  });

  it('Ctrl-C while a bug is planted stops the tests and puts the file back', async () => {
    project([`{ id: 'hangs', bug: 'a run that never ends', file: 'rule.mjs', find: 'placesLeft > 0', replace: 'placesLeft > -1', tests: ['slow.mjs'] }`]);
    const child = spawn('node', [script, `--root=${dir}`, `--list=${path.join(dir, 'list.mjs')}`, '--no-baseline', '--only=hangs'], { stdio: 'pipe' });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await vi.waitFor(() => expect(readFileSync(path.join(dir, 'rule.mjs'), 'utf8')).toContain('placesLeft > -1'), { timeout: 10_000 });
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(out).toContain('rule.mjs put back');
    expect(readFileSync(path.join(dir, 'rule.mjs'), 'utf8')).toBe(rule);
  });

  it('after a SIGKILL while a bug was planted, the next run puts the file back first', async () => {
    project([`{ id: 'hangs', bug: 'a run that never ends', file: 'rule.mjs', find: 'placesLeft > 0', replace: 'placesLeft > -1', tests: ['slow.mjs'] }`]);
    const child = spawn('node', [script, `--root=${dir}`, `--list=${path.join(dir, 'list.mjs')}`, '--no-baseline', '--only=hangs'], { stdio: 'ignore' });
    // Planted, and its test run started (in a process group of its own, which the journal names).
    const journal = path.join(dir, '.tmp', 'mutation-check', 'planted.json');
    await vi.waitFor(() => expect(existsSync(journal) && (JSON.parse(readFileSync(journal, 'utf8')) as { group?: number }).group).toBeGreaterThan(0), { timeout: 10_000 });
    const { group } = JSON.parse(readFileSync(journal, 'utf8')) as { group: number };
    expect(readFileSync(path.join(dir, 'rule.mjs'), 'utf8')).toContain('placesLeft > -1');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    // The file stays mutated and the test run goes on without it.
    expect(readFileSync(path.join(dir, 'rule.mjs'), 'utf8')).toContain('placesLeft > -1');
    expect(alive(group)).toBe(true);

    const next = run(['--plan']);
    expect(next.stdout).toContain(`process group ${group}) were still running: stopped`);
    expect(next.stdout).toContain('was left mutated by an interrupted run (hangs): put back');
    expect(readFileSync(path.join(dir, 'rule.mjs'), 'utf8')).toBe(rule);
    await vi.waitFor(() => expect(alive(group)).toBe(false));
  });
});
