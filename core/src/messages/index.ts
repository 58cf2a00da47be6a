export * from './kinds.ts';
export * from './compose.ts';
export * from './ics.ts';
export * from './private-links.ts';
