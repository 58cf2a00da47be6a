import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './built-server.ts';

/**
 * The operator's commands' usage is readable before the server is configured:
 * it is what an operator reads to write /etc/estudio/estudio.env.
 */
function cli(args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'production' };
  delete env.AUTH_SECRET;
  delete env.DATABASE_URL;
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server', 'src', 'cli.ts'), ...args], { cwd: repoRoot, env, encoding: 'utf8' });
}

describe('the usage of server/src/cli.ts', () => {
  it('is printed by --help with no configuration, and exits 0', () => {
    const result = cli(['--help']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Uso: estudio <comando>');
    expect(result.stdout).toContain('owner --email CORREO');
    expect(result.status).toBe(0);
  });

  it('answers an unknown command with the usage and exit 2; a known one still needs the configuration', () => {
    const unknown = cli(['respaldar']);
    expect(unknown.stderr).toContain('Uso: estudio <comando>');
    expect(unknown.status).toBe(2);
    const owner = cli(['owner', '--email', 'duena@estudio.mx']);
    expect(owner.stderr).toContain('AUTH_SECRET: es obligatorio en producción');
    expect(owner.status).toBe(2);
  });
});
