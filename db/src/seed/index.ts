export { seedDemoStudio, seedIfEmpty } from './demo-studio.ts';
export type { SeedOptions, SeedSummary } from './demo-studio.ts';
export { demoAccounts, demoPassword } from './accounts.ts';
export type { DemoAccountKey } from './accounts.ts';
export { demoStudioSettings } from './demo-settings.ts';
