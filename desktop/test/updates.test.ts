import { createHash } from 'node:crypto';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions } from 'builder-util-runtime';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { NsisUpdater } from 'electron-updater/out/NsisUpdater.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { restartQuestion, startDeskUpdates, updatesFeedUrl } from '../src/main/updates.ts';

/**
 * Updates of the installed desk (decision 019): the studio's real server
 * serves a folder of releases at /desk/updates, and electron-updater's own
 * updater (NsisUpdater, as on a reception PC with Windows) checks it,
 * downloads in the background and the desk asks staff to restart.
 */
let server: TestServer;
let serverUrl: string;
let work: string;
let releases: string;
const installer = Buffer.from('MZ instalador de prueba de Recepción 0.2.0');
const sha512 = createHash('sha512').update(installer).digest('base64');

const latestYml = (version: string) =>
  [
    `version: ${version}`,
    'files:',
    `  - url: estudio-recepcion-${version}-setup.exe`,
    `    sha512: ${sha512}`,
    `    size: ${installer.length}`,
    `path: estudio-recepcion-${version}-setup.exe`,
    `sha512: ${sha512}`,
    "releaseDate: '2026-11-24T05:00:00.000Z'",
    '',
  ].join('\n');

/** builder-util's NodeHttpExecutor: plain node:http instead of Electron's net module. */
class NodeExecutor extends HttpExecutor<http.ClientRequest> {
  createRequest(options: http.RequestOptions, callback: (response: http.IncomingMessage) => void): http.ClientRequest {
    return http.request(options, callback);
  }

  /** As electron-updater's ElectronHttpExecutor downloads (the updater calls it for the installer). */
  async download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: http.RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        { destination, options, onCancel, callback: (error) => (error == null ? resolve(destination) : reject(error)), responseHandler: null },
        0,
      );
    });
  }
}

/** Electron's app as electron-updater sees it, for a packaged desk of `version`. */
function appAdapter(version: string): AppAdapter {
  const dir = mkdtempSync(path.join(work, 'app-'));
  const configPath = path.join(dir, 'app-update.yml');
  writeFileSync(configPath, `provider: generic\nurl: ${updatesFeedUrl(serverUrl)}\nupdaterCacheDirName: estudio-recepcion-updater\n`);
  return {
    version,
    name: 'Estudio Recepción',
    isPackaged: true,
    appUpdateConfigPath: configPath,
    userDataPath: path.join(dir, 'user'),
    baseCachePath: path.join(dir, 'cache'),
    whenReady: async () => {},
    relaunch: () => {},
    quit: () => {},
    onQuit: () => {},
  };
}

function nsisUpdater(version: string) {
  const updater = new NsisUpdater(null, appAdapter(version));
  // Without Electron: node:http and the Windows channel (latest.yml) on any machine.
  (updater as unknown as { httpExecutor: HttpExecutor<http.ClientRequest> }).httpExecutor = new NodeExecutor();
  (updater as unknown as { _testOnlyOptions: { platform: string } })._testOnlyOptions = { platform: 'win32' };
  updater.logger = null;
  return updater;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'desk-updates-'));
  releases = path.join(work, 'releases');
  mkdirSync(releases);
  writeFileSync(path.join(releases, 'latest.yml'), latestYml('0.2.0'));
  writeFileSync(path.join(releases, 'estudio-recepcion-0.2.0-setup.exe'), installer);
  writeFileSync(path.join(releases, '.env'), 'SECRETO=1');
  writeFileSync(path.join(work, 'secreto.txt'), 'fuera de la carpeta');
  server = await startTestServer({ DESK_RELEASES_DIR: releases });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the server serves the releases folder at /desk/updates', () => {
  it('answers the channel file as YAML, never cached, and the installer as a Windows executable with ranges', async () => {
    const yml = await fetch(`${serverUrl}/desk/updates/latest.yml?noCache=abc`);
    expect(yml.status).toBe(200);
    expect(yml.headers.get('content-type')).toBe('text/yaml; charset=utf-8');
    expect(yml.headers.get('cache-control')).toBe('no-cache');
    expect(await yml.text()).toBe(latestYml('0.2.0'));
    const exe = await fetch(`${serverUrl}/desk/updates/estudio-recepcion-0.2.0-setup.exe`);
    expect(exe.headers.get('content-type')).toBe('application/vnd.microsoft.portable-executable');
    expect(Buffer.from(await exe.arrayBuffer()).equals(installer)).toBe(true);
    const part = await fetch(`${serverUrl}/desk/updates/estudio-recepcion-0.2.0-setup.exe`, { headers: { range: 'bytes=0-1' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('MZ');
  });

  it('serves nothing outside the folder, no dotfiles, no listing, and a missing file is a JSON 404 (not the portal page)', async () => {
    for (const probe of ['..%2Fsecreto.txt', '%2e%2e/secreto.txt', '..%5Csecreto.txt', '.env', '', 'nada.yml', 'sub/../../secreto.txt']) {
      const answer = await fetch(`${serverUrl}/desk/updates/${probe}`);
      const body = await answer.text();
      // '%2e%2e' and 'sub/../..' are resolved by fetch before sending: they leave /desk/updates, and must not reach the file either.
      if (!probe.includes('2e') && !probe.includes('sub/')) expect(answer.status, probe).toBeGreaterThanOrEqual(400);
      expect(body, probe).not.toContain('fuera de la carpeta');
      expect(body, probe).not.toContain('SECRETO');
      expect(body, probe).not.toContain('<html');
    }
    const raw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      // fetch normalizes '..' away; a raw request line does not.
      const req = http.request(`${serverUrl}/desk/updates/../../secreto.txt`, { path: '/desk/updates/../../secreto.txt' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(raw.body).not.toContain('fuera de la carpeta');
  });
});

describe("electron-updater's check against our server", () => {
  it('finds 0.2.0 for a desk on 0.1.0, downloads it in the background and asks staff to restart (in Spanish)', async () => {
    const updater = nsisUpdater('0.1.0');
    const asked: string[] = [];
    let installed = false;
    updater.quitAndInstall = () => {
      installed = true;
    };
    const updates = startDeskUpdates({
      updater,
      serverUrl: () => serverUrl,
      busy: () => false,
      ask: async (version) => {
        asked.push(version);
        return true;
      },
    });
    try {
      const found = (await updater.checkForUpdates()) as { isUpdateAvailable: boolean; updateInfo: { version: string } } | null;
      expect(found?.isUpdateAvailable).toBe(true);
      expect(found?.updateInfo.version).toBe('0.2.0');
      const end = Date.now() + 20_000;
      while (!installed && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(asked).toEqual(['0.2.0']);
      expect(installed).toBe(true);
    } finally {
      updates.stop();
    }
    expect(restartQuestion('0.2.0').message).toContain('0.2.0');
    expect(restartQuestion('0.2.0').buttons).toEqual(['Reiniciar ahora', 'Más tarde']);
  });

  it('finds nothing for a desk already on 0.2.0', async () => {
    const updater = nsisUpdater('0.2.0');
    updater.setFeedURL({ provider: 'generic', url: updatesFeedUrl(serverUrl) });
    const found = (await updater.checkForUpdates()) as { isUpdateAvailable: boolean } | null;
    expect(found?.isUpdateAvailable).toBe(false);
  });

  it('waits while the receptionist is busy (a check-in in progress) and asks once the desk is quiet', async () => {
    const updater = nsisUpdater('0.1.0');
    updater.quitAndInstall = () => {};
    let busy = true;
    const asked: string[] = [];
    const updates = startDeskUpdates({
      updater,
      serverUrl: () => serverUrl,
      busy: () => busy,
      ask: async (version) => {
        asked.push(version);
        return false;
      },
      retryAskMs: 50,
    });
    try {
      await updater.checkForUpdates();
      const downloaded = Date.now() + 20_000;
      // The download finishes in the background; while busy nobody is asked.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(asked).toEqual([]);
      busy = false;
      while (!asked.length && Date.now() < downloaded) await new Promise((r) => setTimeout(r, 50));
      expect(asked).toEqual(['0.2.0']);
    } finally {
      updates.stop();
    }
  });
});
