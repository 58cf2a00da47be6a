// What a build was made from: a hash of every file under some paths that git tracks or would track (ignored files
// are not sources), path and content, as they are on disk. A build that writes it beside itself is rebuilt only when
// the sources changed since (the suite's two passes on CI build the same tree once, not twice).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the portal's build reads: its own folder, core, and the locked dependencies. */
export const portalSources = ['portal', 'core', 'package.json', 'package-lock.json'];
/** What the desk screens' build reads: the renderer, its build config, core and the locked dependencies. */
export const deskScreenSources = ['desktop/src/renderer', 'desktop/renderer.config.ts', 'core', 'package.json', 'package-lock.json'];

/** The repository's folder: the sources' paths above are relative to it, wherever a build is started from. */
export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The stamp of `paths` (relative to the repository `root`), or null outside a git checkout. */
export function sourceStamp(root, paths) {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...paths], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    const hash = createHash('sha256');
    for (const file of [...new Set(listed.toString().split('\0').filter(Boolean))].sort()) {
      const onDisk = join(root, file);
      // A file deleted but not committed yet is simply gone from the sources.
      if (existsSync(onDisk)) hash.update(`${file}\0`).update(readFileSync(onDisk)).update('\0');
    }
    return hash.digest('hex');
  } catch {
    return null;
  }
}

const stampFile = (dist) => join(dist, '.source-stamp');

/** Whether the build in `dist` was made from these sources (false when unknown: build again). */
export function builtFrom(dist, stamp) {
  return stamp !== null && existsSync(join(dist, 'index.html')) && existsSync(stampFile(dist)) && readFileSync(stampFile(dist), 'utf8') === stamp;
}

/** Records what the build in `dist` was made from. */
export function recordStamp(dist, stamp) {
  if (stamp !== null) writeFileSync(stampFile(dist), stamp);
}
