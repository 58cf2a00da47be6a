import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './built-server.ts';

/**
 * deploy/drill.ts in the PostgreSQL pass (decision 076): two built server
 * processes behind nginx with the kit's own configuration over TLS, a new
 * migration and a rolling restart under traffic; the drill counts the failed
 * requests and exits non-zero on any, or on a broken invariant. Needs nginx
 * and openssl (.ci/run installs them).
 */
const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('the deployment drill (nginx, two processes, PostgreSQL)', () => {
  it('restarts both processes one at a time under traffic, with a new migration, and no request fails', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'deploy', 'drill.ts')], {
      cwd: repoRoot,
      env: { ...process.env, DRILL_PORT: '4130', DRILL_SECONDS: '3' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(out).toMatch(/fallidas: 0;/);
    expect(out).toContain('nginx respondió 429');
    expect(code, out).toBe(0);
  }, 300_000);
});
