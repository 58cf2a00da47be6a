/**
 * Resolves in a later task of the browser's, so what runs after it is not
 * counted in the same task as what ran before: the browser can paint and
 * answer a tap in between, and no single task grows past 50 ms of work that
 * could have been two (decision 048). `scheduler.yield()` where the browser
 * has it (its continuation runs before other pages' tasks), else a timer.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}
