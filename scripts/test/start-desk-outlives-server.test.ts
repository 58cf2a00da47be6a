import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deskScreenSources, portalSources, recordStamp, repositoryRoot, sourceStamp } from '../source-stamp.mjs';

/**
 * `npm start` (scripts/start.mjs) runs the server and the desk as two
 * processes; the desk must outlive the server it talks to, so the offline
 * story can be shown with the one-command start. Real
 * processes on free loopback ports: the server on PGlite in a temporary
 * folder, the desk with its own replica; the server is SIGKILLed and the desk
 * must keep answering, until Ctrl-C (SIGINT) stops everything.
 */
const root = path.resolve(import.meta.dirname, '../..');
const temp = mkdtempSync(path.join(tmpdir(), 'start-desk-'));
let start: ChildProcess | null = null;
let output = '';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
const answers = (url: string) => fetch(url, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 120_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`esperando: ${what}\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
/** The pids of a process's children whose command line contains `needle`. */
const childrenOf = (pid: number, needle: string) =>
  execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(needle))
    .map((line) => Number(line.trim().split(/\s+/)[0]));

afterAll(() => {
  if (start?.exitCode === null) start.kill('SIGKILL');
  rmSync(temp, { recursive: true, force: true });
});

describe('npm start', () => {
  it('keeps the desk running when the server stops, says so in Spanish, and Ctrl-C stops the rest', async () => {
    const [port, deskPort] = [await freePort(), await freePort()];
    // Built pages are not what this test is about: a stand-in page each, stamped as built from the sources as they
    // are, so nothing is built (npm start builds a folder whose stamp differs).
    for (const [dir, sources] of [
      ['portal', portalSources],
      ['desk-web', deskScreenSources],
    ] as const) {
      mkdirSync(path.join(temp, dir), { recursive: true });
      writeFileSync(path.join(temp, dir, 'index.html'), '<!doctype html><title>prueba</title>');
      recordStamp(path.join(temp, dir), sourceStamp(repositoryRoot, sources));
    }
    start = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: '',
        DATA_DIR: path.join(temp, 'data'),
        PORTAL_DIST: path.join(temp, 'portal'),
        LOG_LEVEL: 'warn',
        DESK_PORT: String(deskPort),
        DESK_DATA_DIR: path.join(temp, 'desk-data'),
        DESK_WEB_DIST: path.join(temp, 'desk-web'),
      },
    });
    start.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    start.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => start?.once('exit', (code) => resolve(code)));

    await until('the server answers', () => answers(`http://127.0.0.1:${port}/api/health`));
    await until('the desk answers', () => answers(`http://127.0.0.1:${deskPort}/health`));

    const [serverPid] = childrenOf(start.pid as number, path.join('server', 'src', 'main.ts'));
    const [deskPid] = childrenOf(start.pid as number, path.join('desktop', 'src', 'web', 'main.ts'));
    expect(serverPid).toBeGreaterThan(0);
    expect(deskPid).toBeGreaterThan(0);
    process.kill(serverPid as number, 'SIGKILL');
    await until('the server is gone', async () => !(await answers(`http://127.0.0.1:${port}/api/health`)));
    await until('the Spanish notice', () => output.includes('La recepción sigue abierta'), 10_000);

    // Seconds later the desk still answers, and npm start is still running.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await answers(`http://127.0.0.1:${deskPort}/health`)).toBe(true);
    expect(start.exitCode).toBeNull();
    expect(output).toMatch(/sin conexión/i);

    // Ctrl-C stops the desk too, and the script ends.
    start.kill('SIGINT');
    await exited;
    expect(await answers(`http://127.0.0.1:${deskPort}/health`)).toBe(false);
  }, 240_000);
});
