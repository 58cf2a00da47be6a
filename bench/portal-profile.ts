// Where a cold first load of the portal's public pages spends the main thread,
// under the CPU slowdown Lighthouse's mobile preset simulates (4×), in figures
// that do not hang on one Lighthouse run's luck (decision 048):
//   - long tasks: every main-thread task over 50 ms from navigation until the
//     app says it has started (<html data-app="started">) and the page is idle,
//     their "blocking" sum (each task's time over 50 ms, as TBT counts it) and
//     the longest one;
//   - script: the main thread's time compiling and evaluating modules and
//     running script (the trace's EvaluateScript, v8.compileModule,
//     v8.evaluateModule, FunctionCall, TimerFire, EventDispatch, RunMicrotasks,
//     top-level only), and style recalculation and layout;
//   - the heaviest functions by self time (a V8 CPU profile of the same load),
//     grouped by file, and the JS and CSS bytes the page fetched.
// Each figure is the median of BENCH_PROFILE_RUNS loads (5), each in a fresh
// browser context (nothing cached). The server must already be running:
//   PROFILE_BASE=http://127.0.0.1:3392,http://127.0.0.1:3391 BENCH_PAGES=/,/calendario npx tsx bench/portal-profile.ts
// BENCH_PROFILE_TOP (15) sets how many functions are listed; PROFILE_CPU (4) the
// slowdown. The load average is printed beside the figures: the machine is shared.
import { loadavg } from 'node:os';
import { chromium, type CDPSession } from 'playwright';

// One server, or two separated by a comma (before,after): their loads alternate, so both meet the same machine.
const bases = (process.env.PROFILE_BASE ?? 'http://127.0.0.1:3391').split(',').map((b) => b.trim());
const pages = (process.env.BENCH_PAGES ?? '/,/paquetes,/calendario,/checkout/3').split(',').map((p) => p.trim());
const runs = Math.max(1, Number(process.env.BENCH_PROFILE_RUNS ?? 5) || 5);
const top = Number(process.env.BENCH_PROFILE_TOP ?? 15);
const cpuRate = Number(process.env.PROFILE_CPU ?? 4);
const chromeArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime?: number;
  samples?: number[];
  timeDeltas?: number[];
}
interface Load {
  longTasks: number[];
  blocking: number;
  script: number;
  style: number;
  evaluateModule: number;
  selfByFunction: Map<string, number>;
  selfByFile: Map<string, number>;
  jsBytes: number;
  cssBytes: number;
}

const scriptEvents = new Set(['EvaluateScript', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'EventDispatch', 'RunMicrotasks', 'v8.compile', 'FireAnimationFrame']);
const styleEvents = new Set(['UpdateLayoutTree', 'Layout', 'RecalculateStyles', 'ParseAuthorStyleSheet']);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const fileOf = (url: string) => (url ? url.replace(/^https?:\/\/[^/]+/, '').replace(/-[A-Za-z0-9_-]{8}\.(js|css)$/, '.$1') : '(native)');

async function collectTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await done;
  return events;
}

async function loadOnce(browser: import('playwright').Browser, base: string, pagePath: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-MX' });
  const page = await context.newPage();
  let jsBytes = 0;
  let cssBytes = 0;
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    void response.body().then(
      (body) => (type === 'script' ? (jsBytes += body.length) : (cssBytes += body.length)),
      () => undefined,
    );
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline', 'v8.execute', 'toplevel', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] },
  });
  await page.goto(base + pagePath, { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.dataset.app === 'started', undefined, { timeout: 60_000 });
  // What runs right after the start (the hydration's second render, a held tap) belongs to the first load too.
  await page.waitForTimeout(1500);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  const events = await collectTrace(cdp);
  await context.close();

  // The renderer's main thread: the one that ran the page's navigation.
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((x) => x.pid === e.pid && x.tid === e.tid && x.name === 'v8.evaluateModule'));
  const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && typeof e.dur === 'number');
  const tasks = onMain.filter((e) => e.name === 'RunTask');
  if (process.env.PROFILE_TASKS === '1') {
    // What each long task holds: its direct children over 5 ms (what script, which style pass).
    for (const task of tasks.filter((t) => t.dur! > 50_000)) {
      const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur! && e.dur! > 5000 && e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask');
      const described = inside
        .filter((e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && o.dur! > e.dur!))
        .map((e) => {
          const data = (e.args?.data ?? e.args ?? {}) as Record<string, unknown>;
          const url = String(data.url ?? data.fileName ?? (data as { stackTrace?: { url: string }[] }).stackTrace?.[0]?.url ?? '');
          return `${e.name}${url ? ' ' + fileOf(url) : ''}${data.functionName ? ' ' + String(data.functionName) : ''} ${(e.dur! / 1000).toFixed(0)}`;
        });
      console.log(`  tarea ${(task.dur! / 1000).toFixed(0)} ms: ${described.join(' | ')}`);
      // The CPU profile's samples inside the task (the profile's clock is the trace's), by self time.
      const within = new Map<string, number>();
      let at = profile.startTime ?? 0;
      (profile.samples ?? []).forEach((id, i) => {
        at += profile.timeDeltas?.[i] ?? 0;
        if (at < task.ts || at > task.ts + task.dur!) return;
        const frame = profile.nodes.find((n) => n.id === id)?.callFrame;
        if (!frame) return;
        const key = `${frame.functionName || '(anónima)'} ${fileOf(frame.url)}${frame.url ? `:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : ''}`;
        within.set(key, (within.get(key) ?? 0) + (profile.timeDeltas?.[i + 1] ?? 0) / 1000);
      });
      const heaviest = [...within].sort((a, b) => b[1] - a[1]).slice(0, 8);
      console.log('      ' + heaviest.map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(' · '));
    }
  }
  const longTasks = tasks.map((t) => t.dur! / 1000).filter((ms) => ms > 50);
  const topLevel = (names: Set<string>) => {
    const chosen = onMain.filter((e) => names.has(e.name)).sort((a, b) => a.ts - b.ts);
    let total = 0;
    let end = -Infinity;
    for (const e of chosen) {
      if (e.ts >= end) {
        total += e.dur!;
        end = e.ts + e.dur!;
      } else if (e.ts + e.dur! > end) {
        total += e.ts + e.dur! - end;
        end = e.ts + e.dur!;
      }
    }
    return total / 1000;
  };
  const evaluateModule = topLevel(new Set(['v8.evaluateModule']));

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfByFunction = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]!);
    const ms = (deltas[i + 1] ?? 0) / 1000;
    if (!node) continue;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    const file = fileOf(url);
    const fn = `${functionName || '(anónima)'} ${file}${url ? `:${lineNumber + 1}:${columnNumber + 1}` : ''}`;
    selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + ms);
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + ms);
  }
  return {
    longTasks,
    blocking: longTasks.reduce((sum, ms) => sum + (ms - 50), 0),
    script: topLevel(scriptEvents),
    style: topLevel(styleEvents),
    evaluateModule,
    selfByFunction,
    selfByFile,
    jsBytes,
    cssBytes,
  };
}

function topOf(maps: Map<string, number>[], n: number): [string, number][] {
  const keys = new Set(maps.flatMap((m) => [...m.keys()]));
  return [...keys]
    .map((k) => [k, median(maps.map((m) => m.get(k) ?? 0))] as [string, number])
    .sort((a, b) => b[1] - a[1])
    .slice(0, n);
}

function report(title: string, loads: Load[]): void {
  const m = (pick: (l: Load) => number) => median(loads.map(pick)).toFixed(0);
  console.log(`\n== ${title} (carga ${loadavg()[0]!.toFixed(2)}) ==`);
  console.log(`tareas largas: mediana ${m((l) => l.longTasks.length)}, bloqueo (lo que pasa de 50 ms) ${m((l) => l.blocking)} ms, la más larga ${m((l) => Math.max(0, ...l.longTasks))} ms`);
  console.log(`script ${m((l) => l.script)} ms (de ello v8.evaluateModule ${m((l) => l.evaluateModule)} ms), estilos y layout ${m((l) => l.style)} ms`);
  console.log(`JS ${(median(loads.map((l) => l.jsBytes)) / 1024).toFixed(1)} KiB, CSS ${(median(loads.map((l) => l.cssBytes)) / 1024).toFixed(1)} KiB (sin comprimir)`);
  console.log('tareas largas por carga (ms): ' + loads.map((l) => `[${l.longTasks.map((t) => t.toFixed(0)).join(' ')}]`).join(' '));
  console.log('tiempo propio por archivo (ms, mediana):');
  for (const [file, ms] of topOf(loads.map((l) => l.selfByFile), 12)) console.log(`  ${ms.toFixed(1).padStart(7)}  ${file}`);
  console.log('tiempo propio por función (ms, mediana):');
  for (const [fn, ms] of topOf(loads.map((l) => l.selfByFunction), top)) console.log(`  ${ms.toFixed(1).padStart(7)}  ${fn}`);
}

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromeArgs });
  try {
    console.log(`Perfil de la primera carga, CPU ${cpuRate}× más lenta, mediana de ${runs} (${bases.join(' y ')}); carga de la máquina ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const pagePath of pages) {
      const loads = bases.map(() => [] as Load[]);
      for (let i = 0; i < runs; i++) for (const [b, base] of bases.entries()) loads[b]!.push(await loadOnce(browser, base, pagePath));
      for (const [b, base] of bases.entries()) report(`${pagePath} en ${base}`, loads[b]!);
    }
  } finally {
    await browser.close();
  }
}

await main();
