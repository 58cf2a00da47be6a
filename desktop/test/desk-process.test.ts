import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDeskProcess, type DeskProcessChild } from '../src/main/desk-process.ts';
import { deskServiceV8Flags } from '../src/service/process-protocol.ts';

/**
 * The desk service's own process (decision 134), started as the main process
 * starts it but through Node's fork: the real entry, its messages, its close.
 */
const work = mkdtempSync(path.join(tmpdir(), 'desk-process-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const entry = path.join(import.meta.dirname, '../src/web/service-process.ts');
const forkService = (env: Record<string, string>) => (): DeskProcessChild => {
  const child = fork(entry, [], {
    execArgv: [...deskServiceV8Flags, '--import', 'tsx'],
    env: { ...process.env, DESK_RENDERER_DIR: path.join(import.meta.dirname, '../src/renderer'), DESK_PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  return { postMessage: (message) => child.send(message), on: (event: string, listener: (...args: unknown[]) => void) => child.on(event, listener), kill: () => child.kill() } as DeskProcessChild;
};

describe("the desk service's process", () => {
  it('says why it could not start, in its own words, and ends', async () => {
    const notAFolder = path.join(work, 'archivo');
    writeFileSync(notAFolder, 'no es una carpeta');
    await expect(startDeskProcess(forkService({ DESK_DATA_DIR: path.join(notAFolder, 'replica') }), () => {})).rejects.toThrow(/ENOTDIR|not a directory|no es/i);
  }, 60_000);

  it('answers on loopback, reports its status, closes its replica when asked and is not reported as a crash', async () => {
    const exits: number[] = [];
    const service = await startDeskProcess(forkService({ DESK_DATA_DIR: path.join(work, 'replica'), DESK_SERVER_URL: 'http://127.0.0.1:9' }), (code) => exits.push(code));
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?llave=/);
    expect((await fetch(new URL('/health', service.origin))).status).toBe(200);
    expect(service.status()).toMatchObject({ serverUrl: 'http://127.0.0.1:9', pending: 0 });
    await service.close();
    await expect(fetch(new URL('/health', service.origin))).rejects.toThrow();
    expect(exits).toEqual([]);
  }, 60_000);

  it("`npm run desk:web` starts the desk with the same V8 flags, so what the browser specs drive is what the desk runs", () => {
    const scripts = (JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const flag of deskServiceV8Flags) expect(scripts['desk:web']?.split(' ')).toContain(flag);
  });
});
