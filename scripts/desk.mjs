// `npm run desk`: the desk in Electron (electron-vite dev). Electron's binary is not downloaded
// by `npm install` (.npmrc, decision 019); the first run downloads it here, once, with a clear
// message when it cannot. Without it the desk still runs in the browser: `npm run desk:web`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const desktopRequire = createRequire(path.join(root, 'desktop', 'package.json'));

/** The path of Electron's binary when it is installed, else null (electron's index.js throws without it). */
export function electronBinary(requireFrom = desktopRequire) {
  try {
    const binary = requireFrom('electron');
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Runs electron's own install step (download into node_modules/electron/dist); true when the binary is there afterwards. */
export function ensureElectron(requireFrom = desktopRequire, env = process.env) {
  if (electronBinary(requireFrom)) return true;
  let installScript;
  try {
    installScript = requireFrom.resolve('electron/install.js');
  } catch {
    console.error('Falta el paquete electron: ejecuta `npm install` primero.');
    return false;
  }
  console.log('Descargando Electron (solo la primera vez)…');
  const childEnv = { ...env };
  // Someone asked for the desk in Electron: the skip meant for `npm install` does not apply here.
  delete childEnv.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const result = spawnSync(process.execPath, [installScript], { stdio: 'inherit', env: childEnv, cwd: path.dirname(installScript) });
  if (result.status === 0 && electronBinary(requireFrom)) return true;
  console.error(
    [
      '',
      'No se pudo descargar Electron (revisa la conexión a internet, o el proxy: HTTPS_PROXY y ELECTRON_GET_USE_PROXY=1).',
      'Mientras tanto puedes usar la recepción en el navegador: npm run desk:web',
    ].join('\n'),
  );
  return false;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!ensureElectron()) process.exit(1);
  const child = spawn('npm', ['run', 'dev', '-w', '@estudio/desktop'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  child.on('exit', (code) => process.exit(code ?? 1));
}
