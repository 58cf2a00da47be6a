import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { demoPassword } from './helpers.ts';

/**
 * Processes of the desk specs: each starts its own server and desk:web (so a
 * test can stop the server and start it again) and signs in through /api.
 */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Starts `[command, ...args]` in the repository, its errors prefixed with `name`; npm's notices about the machine are dropped. */
export function run([command = process.execPath, ...args]: string[], env: Record<string, string>, name: string): ChildProcess {
  const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString().split('\n').filter((line) => line && !line.startsWith('npm warn')).join('\n');
    if (text) process.stderr.write(`[${name}] ${text}\n`);
  });
  return child;
}

/**
 * The key desk:web answers to (DESK_WEB_KEY), and the link that opens its
 * page with it, as the terminal's link does (decision 014).
 */
export const deskKey = `e2e-${process.pid}-${Date.now()}`;
export const deskLink = (deskUrl: string) => `${deskUrl}/?llave=${deskKey}`;

/** Resolves when the process ends with code 0. */
export async function finished(child: ChildProcess, what: string): Promise<void> {
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${what} terminó con ${code}`);
}

/** Waits until the URL answers 2xx. */
export async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error(`${url} no respondió`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** SIGTERM and wait for the exit (a no-op for a process already gone). */
export async function stop(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A demo account's ID token from the server's /api. */
export async function apiLogin(request: APIRequestContext, serverUrl: string, email: string): Promise<string> {
  const answer = await request.post(`${serverUrl}/api/auth/login`, { data: { email, password: demoPassword } });
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { idToken: string }).idToken;
}
