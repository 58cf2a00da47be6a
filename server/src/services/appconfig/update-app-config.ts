import { and, inArray, isNull, sql } from 'drizzle-orm';
import { app_config } from '@estudio/db/schema/app-config';
import { class_package } from '@estudio/db/schema/packages';
import { appConfigChangeInStep, appConfigDefaults, appConfigPackageKeys, appConfigProblem, appConfigValueText, DomainError, type AppConfigEntry } from '@estudio/core';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';

function invalidValue(key: string, message: string): DomainError {
  // `field` lets an admin screen put the message by its input; the message names the setting in Spanish.
  return Object.assign(new DomainError('appconfig/invalid-value', message), { field: key });
}

/**
 * Saves admin changes in one transaction: either every value is stored or
 * none is. Only keys the product knows are accepted, and each value must fit
 * its setting (core's appConfigRules: booleans, integers in range, an IANA
 * time zone, colours, e-mails, links, a class package that exists...); the
 * first value that does not is refused with 400 'appconfig/invalid-value'
 * naming the setting, and nothing is saved. The time zone and the spec's
 * timezone_offset are saved in step (appConfigChangeInStep, decision 030).
 */
export async function updateAppConfig(db: Db, entries: readonly AppConfigEntry[], updatedBy: number | null): Promise<void> {
  for (const { key } of entries) {
    if (!Object.hasOwn(appConfigDefaults, key)) throw new DomainError('appconfig/unknown-key');
  }
  await db.transaction(async (tx) => {
    const stored = await tx.select({ key: app_config.key, value: app_config.value }).from(app_config);
    const current = Object.fromEntries(stored.map((r) => [r.key, r.value]));
    const problem = appConfigProblem(entries, current);
    if (problem) throw invalidValue(problem.key, problem.message);
    const packageIds = entries.filter((e) => appConfigPackageKeys.includes(e.key as never) && e.value !== '');
    if (packageIds.length) {
      const found = await tx
        .select({ id: class_package.class_package_id })
        .from(class_package)
        .where(and(inArray(class_package.class_package_id, packageIds.map((e) => Number(e.value))), isNull(class_package.deletedAt)));
      const missing = packageIds.find((e) => !found.some((p) => p.id === Number(e.value)));
      if (missing) throw invalidValue(missing.key, appConfigValueText(missing.key));
    }
    const changed = appConfigChangeInStep(entries, current).filter(({ key, value }) => current[key] !== value);
    // Who changed which settings (decision 037): keys and values, never a private value's text.
    if (changed.length && updatedBy !== null) {
      await recordAudit(tx, { actorId: updatedBy, action: 'update', entity: 'app_config', changes: { keys: changed.map((e) => e.key) } });
    }
    for (const { key, value } of appConfigChangeInStep(entries, current)) {
      await tx
        .insert(app_config)
        .values({ key, value, updated_by: updatedBy })
        .onConflictDoUpdate({ target: app_config.key, set: { value, updated_by: updatedBy, updatedAt: sql`now()` } });
    }
  });
}
