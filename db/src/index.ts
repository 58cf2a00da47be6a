export { createDb, migrate, migrationsFolder } from './create-db.ts';
export type { CreateDbOptions, MigrateOptions, Db, DbHandle, DbOrTx, PgliteHandle, PostgresHandle, Schema, Tx } from './create-db.ts';
export { hashPassword, verifyPassword } from './password.ts';
export * as schema from './schema/index.ts';
export * from './schema/index.ts';
export { demoAccounts, demoPassword, seedDemoStudio, seedIfEmpty } from './seed/index.ts';
export type { DemoAccountKey, SeedOptions, SeedSummary } from './seed/index.ts';
export { isCheckViolation, isConnectionLost, isUniqueViolation, pgConstraint, pgErrorCode } from './errors.ts';
export { usableCredit } from './credit-rules.ts';
