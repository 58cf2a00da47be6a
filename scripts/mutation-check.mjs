#!/usr/bin/env node
// The mutation check: do the tests catch a plausible bug in the rules?
//
// Each mutation of the committed list (scripts/mutations.mjs) is a small bug
// planted in one source file: exact text and its replacement (one edit or a
// few), with the test files that guard that rule. One at a time, the file is
// changed in place, those tests run on PGlite, and the file is put back. A
// mutation the tests fail on is caught; one they pass is a survivor, a rule
// no test holds. A mutation whose text is no longer in its file is reported
// "not planted" (the code moved on: update the list), never skipped quietly.
//
//   node scripts/mutation-check.mjs                  every mutation (about 40 minutes on 2 cores)
//   node scripts/mutation-check.mjs --only=a,b       these ids
//   node scripts/mutation-check.mjs --list=<file>    another list (its module exports `mutations`, optionally `runner`)
//   --plan          only check that each mutation can be planted (its text is in its file once); run nothing
//   --no-baseline   skip the first run of the listed tests unchanged (a failing test would catch everything)
//   --timeout=600   seconds per mutation's run; a run that does not end counts as caught (a hang is a failure)
//   --root=<dir>    where the listed paths are (the repository by default)
//
// The original of the file being changed is also written to .tmp/mutation-check/
// before the change, so it is put back on Ctrl-C, on a kill of the test run, on
// an error of this script, and, after a SIGKILL of this script, by its next start.
// Not part of `npm test` (too slow). Exit code: 0 when every mutation was
// planted and caught.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const root = resolve(option('root') ?? repo);
const listPath = resolve(option('list') ?? join(repo, 'scripts', 'mutations.mjs'));
const only = (option('only') ?? '').split(',').filter(Boolean);
const timeoutMs = Number(option('timeout') ?? 600) * 1000;
const planOnly = args.includes('--plan');
const baseline = !args.includes('--no-baseline') && !planOnly;
const work = join(root, '.tmp', 'mutation-check');
const journal = join(work, 'planted.json');

// ---------- Putting files back, whatever happens ----------

/** The file changed right now and its original text. */
let planted = null;
let child = null;

function restore() {
  if (!planted) return;
  writeFileSync(planted.path, planted.original);
  rmSync(journal, { force: true });
  planted = null;
}

/**
 * A previous run killed while a mutation was planted left its journal: its
 * test run (a process group of its own) may still be going on the mutated
 * file; end it if it is still the runner's, then put the file back.
 */
function restoreInterrupted() {
  if (!existsSync(journal)) return;
  const left = JSON.parse(readFileSync(journal, 'utf8'));
  if (left.group) {
    let command = '';
    try {
      command = readFileSync(`/proc/${left.group}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      // Gone already.
    }
    if (command && runner.slice(0, 2).every((part) => command.includes(part))) {
      try {
        process.kill(-left.group, 'SIGKILL');
        console.log(`↺ the interrupted run's tests (process group ${left.group}) were still running: stopped`);
      } catch {
        // Ended meanwhile.
      }
    }
  }
  writeFileSync(left.path, Buffer.from(left.original, 'base64'));
  rmSync(journal, { force: true });
  console.log(`↺ ${left.path} was left mutated by an interrupted run (${left.id}): put back`);
}

function plant(mutation, path, original, mutated) {
  mkdirSync(work, { recursive: true });
  // The journal first, then the change: a kill between the two leaves a journal of an unchanged file, which is harmless.
  writeFileSync(journal, JSON.stringify({ id: mutation.id, path, original: Buffer.from(original).toString('base64') }));
  planted = { path, original };
  writeFileSync(path, mutated);
}

function stopChild() {
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopChild();
    const file = planted?.path;
    restore();
    console.log(`\n${signal}: stopped${file ? `, ${file} put back` : ''}`);
    process.exit(130);
  });
}
process.on('exit', () => {
  stopChild();
  restore();
});
process.on('uncaughtException', (error) => {
  stopChild();
  restore();
  console.error(error);
  process.exit(2);
});

// ---------- The list ----------

const list = await import(pathToFileURL(listPath).href);
/** The test command the listed test files are appended to; the default runs vitest on PGlite, stopping at the first failure. */
// Tests get four times their usual time: on a busy machine a slow test must not pass for a caught bug.
const runner = list.runner ?? [join(repo, 'node_modules', '.bin', 'vitest'), 'run', '--bail=1', '--reporter=dot', '--testTimeout=120000', '--hookTimeout=480000'];
const all = list.mutations;
const mutations = only.length ? all.filter((m) => only.includes(m.id)) : all;
if (only.length && mutations.length !== only.length) {
  console.error(`unknown ids: ${only.filter((id) => !all.some((m) => m.id === id)).join(', ')}`);
  process.exit(2);
}
const ids = new Set();
for (const m of all) {
  if (ids.has(m.id)) throw new Error(`mutation id ${m.id} twice in the list`);
  ids.add(m.id);
}

const edits = (m) => m.edits ?? [{ find: m.find, replace: m.replace }];
const abs = (p) => (isAbsolute(p) ? p : join(root, p));

/** The file with the mutation's edits, or why it cannot be planted: each text must be in the file exactly once. */
function mutate(m, source) {
  let text = source;
  for (const { find, replace } of edits(m)) {
    const at = text.indexOf(find);
    if (at === -1) return { error: `text not found: ${JSON.stringify(find.length > 80 ? `${find.slice(0, 80)}…` : find)}` };
    if (text.indexOf(find, at + 1) !== -1) return { error: `text found more than once: ${JSON.stringify(find)}` };
    text = text.slice(0, at) + replace + text.slice(at + find.length);
  }
  return { text };
}

// ---------- Running the tests ----------

const env = { ...process.env };
// The check runs on PGlite, the embedded default (one database per test file, no server to share).
delete env.TEST_DATABASE_URL;
env.NO_COLOR = '1';

function runTests(files, limitMs = timeoutMs) {
  return new Promise((done) => {
    const started = Date.now();
    let output = '';
    child = spawn(runner[0], [...runner.slice(1), ...files], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    // The journal names the test run too, so a next start can end it if this script is killed.
    if (planted && existsSync(journal)) writeFileSync(journal, JSON.stringify({ ...JSON.parse(readFileSync(journal, 'utf8')), group: child.pid }));
    const keep = (chunk) => {
      output = (output + chunk.toString()).slice(-200_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stopChild();
    }, limitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      child = null;
      done({ code, timedOut, output, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** A test or hook that ran out of its time (vitest's words, or the tests' own wait for a server they started). */
function timedOutInside(output) {
  return /(Test|Hook) timed out in \d+ms|no respondió en \d+ s/.test(output);
}

/** A run that failed because the mutated file does not compile, or found no tests, says nothing about the tests: the entry is wrong. */
function brokenRun(output) {
  return /Transform failed|SyntaxError|ReferenceError: \w+ is not defined|No test files found|Failed to load url|Cannot find module/.test(output);
}

// ---------- The check ----------

restoreInterrupted();
mkdirSync(work, { recursive: true });
const t0 = Date.now();
console.log(`Mutation check: ${mutations.length} mutation(s) from ${listPath.replace(`${root}/`, '')}\n`);

const missingTests = [...new Set(mutations.flatMap((m) => m.tests))].filter((f) => !existsSync(abs(f)));
if (missingTests.length) {
  console.error(`test files in the list that do not exist: ${missingTests.join(', ')}`);
  process.exit(2);
}

if (baseline) {
  const files = [...new Set(mutations.flatMap((m) => m.tests))];
  console.log(`▶ baseline: the ${files.length} test file(s) of the list, unchanged`);
  // Every listed file in one run: the time of one mutation's run for each of them at most.
  let run = await runTests(files, timeoutMs * files.length);
  if (run.code !== 0 && !run.timedOut) {
    // A busy machine fails a slow file now and then: those that failed get one more run of their own.
    const failed = [...new Set([...run.output.matchAll(/FAIL\s+(\S+\.test\.tsx?)/g)].map((m) => m[1]))];
    if (failed.length) {
      console.log(`  failed: ${failed.join(', ')}; once more on their own`);
      const again = await runTests(failed, timeoutMs * failed.length);
      run = { ...again, seconds: run.seconds + again.seconds };
    }
  }
  if (run.code !== 0) {
    console.error(run.output.slice(-6000));
    const why = run.timedOut ? `did not end in ${run.seconds.toFixed(0)} s` : `fail without any mutation (${run.seconds.toFixed(0)} s)`;
    console.error(`✘ the tests ${why}: fix them first, or every mutation would look caught`);
    process.exit(2);
  }
  console.log(`✔ baseline passes (${run.seconds.toFixed(0)} s)\n`);
}

const results = [];
for (const [i, m] of mutations.entries()) {
  const path = abs(m.file);
  const n = `${String(i + 1).padStart(2)}/${mutations.length}`;
  const source = existsSync(path) ? readFileSync(path, 'utf8') : null;
  const change = source === null ? { error: 'file not found' } : mutate(m, source);
  if (change.error) {
    results.push({ id: m.id, outcome: 'not planted', why: change.error });
    console.log(`${n} ∅ not planted  ${m.id}  ${m.file}: ${change.error}`);
    continue;
  }
  if (planOnly) {
    results.push({ id: m.id, outcome: 'plantable' });
    console.log(`${n} · plantable    ${m.id}`);
    continue;
  }
  plant(m, path, source, change.text);
  let run;
  let slow = false;
  try {
    run = await runTests(m.tests);
    // Failed only by a test's time limit: a busy machine, or the bug made something wait. Once more, to tell which.
    if (run.code !== 0 && !run.timedOut && timedOutInside(run.output)) {
      const again = await runTests(m.tests);
      slow = again.code !== 0 && (again.timedOut || timedOutInside(again.output));
      run = { ...again, seconds: run.seconds + again.seconds };
    }
  } finally {
    restore();
  }
  const outcome = run.timedOut ? 'caught' : run.code === 0 ? 'survived' : brokenRun(run.output) ? 'invalid' : 'caught';
  const why = run.timedOut ? 'timed out' : slow ? 'only by tests timing out, twice' : undefined;
  results.push({ id: m.id, outcome, seconds: run.seconds, ...(why ? { why } : {}) });
  const mark = { caught: '✔ caught     ', survived: '✘ SURVIVED   ', invalid: '! invalid    ' }[outcome];
  console.log(`${n} ${mark} ${m.id}  (${run.seconds.toFixed(0)} s${why ? `, ${why}` : ''})  ${m.bug}`);
  if (outcome === 'invalid') console.log(run.output.slice(-3000));
}

const count = (outcome) => results.filter((r) => r.outcome === outcome).length;
if (planOnly) {
  for (const r of results.filter((x) => x.outcome === 'not planted')) console.log(`  not planted: ${r.id} (${r.why})`);
  console.log(`\n--plan: ${count('plantable')} plantable, ${count('not planted')} not planted; nothing was run`);
  process.exit(count('not planted') ? 1 : 0);
}
const caught = count('caught');
const survived = count('survived');
const score = caught + survived ? (100 * caught) / (caught + survived) : 0;
const report = { at: new Date().toISOString(), minutes: (Date.now() - t0) / 60_000, caught, survived, notPlanted: count('not planted'), invalid: count('invalid'), score, results };
writeFileSync(join(work, 'report.json'), JSON.stringify(report, null, 2));
console.log(`\n${caught} caught, ${survived} survived, ${report.notPlanted} not planted, ${report.invalid} invalid: score ${score.toFixed(1)} % (${report.minutes.toFixed(0)} min)`);
for (const r of results.filter((x) => x.outcome !== 'caught' || x.why)) console.log(`  ${r.outcome}: ${r.id}${r.why ? ` (${r.why})` : ''}`);
process.exitCode = survived || report.notPlanted || report.invalid ? 1 : 0;
