import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './built-server.ts';

/**
 * What an operator reads before the server is configured or built: the
 * commands' usage (to write /etc/estudio/estudio.env), and what a production
 * start says when the build is missing.
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

describe('NODE_ENV=production npm start without the build', () => {
  it('says which part is missing, by its full path when it is outside the repository, and exits 1', () => {
    const portalDist = path.join(tmpdir(), `sin-portal-${process.pid}`);
    const result = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'start.mjs')], {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'production', PORTAL_DIST: portalDist },
      encoding: 'utf8',
    });
    // The server's bundle may be missing too (a checkout never built): it is named first, relative to the repository.
    expect(result.stderr).toMatch(/^Falta la compilación \((server\/dist\/main\.mjs, )?\//);
    expect(result.stderr).toContain(`${path.join(portalDist, 'index.html')})`);
    expect(result.stderr).toContain('Corre primero: npm run build');
    expect(result.status).toBe(1);
  });
});
