export * from './kinds.ts';
export * from './compose.ts';
