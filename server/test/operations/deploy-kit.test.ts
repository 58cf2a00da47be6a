import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './built-server.ts';

/**
 * The deployment kit's systemd units (deploy/systemd) as systemd reads them:
 * `systemd-analyze verify` on the template's two instances, the target, the
 * backup service and its timer (decision 076). Paths the units name on a
 * studio's server (/opt/estudio, node) are pointed at this checkout first.
 */
const units = path.join(repoRoot, 'deploy', 'systemd');
const work = mkdtempSync(path.join(tmpdir(), 'unidades-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function verify(files: string[]) {
  return spawnSync('systemd-analyze', ['verify', ...files.map((f) => path.join(work, f))], { encoding: 'utf8' });
}

describe('the systemd units of deploy/', () => {
  it('pass systemd-analyze verify', () => {
    for (const name of readdirSync(units)) {
      const text = readFileSync(path.join(units, name), 'utf8').replaceAll('/usr/bin/node', process.execPath).replaceAll('/opt/estudio', repoRoot.replace(/\/$/, ''));
      writeFileSync(path.join(work, name), text);
    }
    // The template as the target starts it.
    cpSync(path.join(work, 'estudio@.service'), path.join(work, 'estudio@3001.service'));
    cpSync(path.join(work, 'estudio@.service'), path.join(work, 'estudio@3002.service'));
    const result = verify(['estudio@3001.service', 'estudio@3002.service', 'estudio.target', 'estudio-backup.service', 'estudio-backup.timer']);
    expect(result.error, 'systemd-analyze (apt-get install systemd)').toBeUndefined();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('and the check catches a unit that would not start', () => {
    writeFileSync(path.join(work, 'rota.service'), readFileSync(path.join(work, 'estudio-backup.service'), 'utf8').replace(process.execPath, '/usr/bin/no-existe'));
    const result = verify(['rota.service']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('/usr/bin/no-existe');
  });
});
