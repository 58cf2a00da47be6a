/** Types of test-clock.mjs (plain JavaScript, so scripts/test.mjs runs it without a compiler). */
export interface TestClockEnv {
  LD_PRELOAD: string;
  FAKETIME: string;
}
export function faketimeLibrary(): string;
export function currentClockOffsetSeconds(env?: NodeJS.ProcessEnv): number;
export function namedInstant(name: string, now?: Date): string | null;
export function testClockEnv(instant: string, env?: NodeJS.ProcessEnv): TestClockEnv;
export function startClockedPostgres(env?: NodeJS.ProcessEnv): Promise<{ url: string; stop: () => Promise<void> }>;
export function removeStaleFaketimeFiles(dir?: string): void;
