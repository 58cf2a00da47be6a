export const portalSources: string[];
export const deskScreenSources: string[];
/** The repository's folder: the sources' paths are relative to it, wherever a build is started from. */
export const repositoryRoot: string;
/** The stamp of `paths` (relative to the repository `root`), or null outside a git checkout. */
export function sourceStamp(root: string, paths: string[]): string | null;
/** Whether the build in `dist` was made from these sources (false when unknown: build again). */
export function builtFrom(dist: string, stamp: string | null): boolean;
/** Records what the build in `dist` was made from. */
export function recordStamp(dist: string, stamp: string | null): void;
