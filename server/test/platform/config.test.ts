import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('configuration', () => {
  it('makes relative folders absolute, so the server does not depend on where it was started', () => {
    const config = loadConfig({ DATA_DIR: '.tmp/datos', PORTAL_DIST: 'portal/dist', FILES_DIR: 'archivos' });
    expect(config.DATA_DIR).toBe(path.resolve('.tmp/datos'));
    expect(config.PORTAL_DIST).toBe(path.resolve('portal/dist'));
    expect(config.FILES_DIR).toBe(path.resolve('archivos'));
  });

  it('refuses to start in production without a secret for local sign-in, in Spanish', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET: es obligatorio en producción/);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'ochenta' })).toThrow(/PORT:/);
  });
});
