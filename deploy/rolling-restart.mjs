#!/usr/bin/env node
// Restarts the studio's server processes one at a time behind nginx, so a deploy
// (new code, a new migration) fails no request (decision 076). For each process:
//   1. mark it `down` in nginx's upstream file and reload nginx: new requests go to the others,
//      and nginx's old workers finish what they were sending it;
//   2. wait a moment for those to finish, then restart it (systemd sends SIGTERM: it finishes
//      what is in flight and hands back its leases; the new process migrates, under the
//      migrations' lock, and warms up before it listens);
//   3. wait until its /ready answers 200 from a new process (another pid);
//   4. put it back in the upstream file and reload nginx.
// A migration must work with the code before it (add, don't rename or drop in the same deploy):
// while one process runs the new code, the other still runs the old one on the migrated database.
//
//   sudo node deploy/rolling-restart.mjs                      # ports 3001 3002, systemd, /etc/nginx
//   sudo node deploy/rolling-restart.mjs --ports 3001,3002,3003
//
// Options: --ports, --upstream-file (/etc/nginx/estudio-upstream.conf), --restart
// ('systemctl restart estudio@{port}'), --reload ('systemctl reload nginx'), --drain-ms (1500),
// --ready-timeout-ms (120000). deploy/drill.ts uses the same steps with its own processes.
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** nginx's upstream block for these ports, the ones in `down` marked so. */
export function upstreamBlock(ports, down = []) {
  const servers = ports.map((port) => `    server 127.0.0.1:${port} max_fails=0${down.includes(port) ? ' down' : ''};`);
  return `# Written by deploy/rolling-restart.mjs.\nupstream estudio {\n${servers.join('\n')}\n    keepalive 32;\n}\n`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What /ready answers now: its status and the answering process's pid (null: nothing answers). */
async function readiness(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(2000) });
    const body = await res.json();
    return { ok: res.status === 200, pid: body.pid ?? null };
  } catch {
    return { ok: false, pid: null };
  }
}

/**
 * The rolling restart. `restart(port)` restarts one process (it may return before the new one
 * answers); `reload()` makes nginx read the upstream file again; `log` says what happens.
 */
export async function rollingRestart({ ports, upstreamFile, restart, reload, drainMs = 1500, readyTimeoutMs = 120_000, log = console.log }) {
  for (const port of ports) {
    const before = await readiness(port);
    if (!ports.filter((p) => p !== port).length) throw new Error('Con un solo proceso no hay a quién pasar las solicitudes: agrega otro puerto.');
    writeFileSync(upstreamFile, upstreamBlock(ports, [port]));
    await reload();
    log(`${port}: fuera de nginx; esperando ${drainMs} ms a que terminen sus solicitudes`);
    await sleep(drainMs);
    await restart(port);
    const until = Date.now() + readyTimeoutMs;
    for (;;) {
      const now = await readiness(port);
      if (now.ok && now.pid !== null && now.pid !== before.pid) break;
      if (Date.now() > until) throw new Error(`${port}: no quedó listo en ${readyTimeoutMs} ms (GET /ready)`);
      await sleep(250);
    }
    writeFileSync(upstreamFile, upstreamBlock(ports));
    await reload();
    log(`${port}: listo (proceso nuevo) y de vuelta en nginx`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      ports: { type: 'string', default: '3001,3002' },
      'upstream-file': { type: 'string', default: '/etc/nginx/estudio-upstream.conf' },
      restart: { type: 'string', default: 'systemctl restart estudio@{port}' },
      reload: { type: 'string', default: 'systemctl reload nginx' },
      'drain-ms': { type: 'string', default: '1500' },
      'ready-timeout-ms': { type: 'string', default: '120000' },
    },
  });
  const ports = values.ports.split(',').map((p) => Number(p.trim()));
  await rollingRestart({
    ports,
    upstreamFile: values['upstream-file'],
    restart: async (port) => void execSync(values.restart.replaceAll('{port}', String(port)), { stdio: 'inherit' }),
    reload: async () => void execSync(`nginx -t -q && ${values.reload}`, { stdio: 'inherit', shell: '/bin/sh' }),
    drainMs: Number(values['drain-ms']),
    readyTimeoutMs: Number(values['ready-timeout-ms']),
  });
  console.log('Reinicio escalonado terminado.');
}
