import { like } from 'drizzle-orm';
import { app_config } from '@estudio/db/schema/app-config';
import {
  appConfigDefaults,
  appConfigPrivateKeys,
  checkPassword,
  DomainError,
  passwordPolicyFromConfig,
  isValidAppConfigValue,
  isStudioPublished,
  setupSkippedKey,
  studioPublishedKey,
  passwordRuleTexts,
  type AppConfigEntry,
  type PasswordPolicy,
} from '@estudio/core';
import type { Db } from '../../db.ts';
import type { Config } from '../../config.ts';

/**
 * The portal learns the sign-in provider from `firebaseConfig`; it follows the
 * server's configuration, never a stored value, so the two cannot disagree.
 */
export function firebaseConfigValue(config: Config): string {
  if (config.AUTH_PROVIDER === 'local') return JSON.stringify({ provider: 'local' });
  return JSON.stringify({
    provider: 'firebase',
    apiKey: config.FIREBASE_WEB_API_KEY ?? '',
    authDomain: config.FIREBASE_AUTH_DOMAIN ?? `${config.FIREBASE_PROJECT_ID}.firebaseapp.com`,
    projectId: config.FIREBASE_PROJECT_ID,
    ...(config.FIREBASE_APP_ID ? { appId: config.FIREBASE_APP_ID } : {}),
    ...(config.FIREBASE_AUTH_EMULATOR_HOST ? { authEmulatorHost: config.FIREBASE_AUTH_EMULATOR_HOST } : {}),
  });
}

/**
 * Every configuration entry: the stored values, then any key of the defaults
 * that is not stored yet, with `firebaseConfig` taken from the server. A
 * stored value that does not fit its setting (saved before values were
 * checked) answers as the default, as the server's own readers use it.
 * `studio_published` is always there ('false' for a new studio).
 * Private settings (appConfigPrivateKeys) only with `includePrivate` (admins).
 */
export async function getAppConfig(db: Db, config: Config, options: { includePrivate?: boolean } = {}): Promise<AppConfigEntry[]> {
  // The first run's skipped steps are the console's (GET /api/setup); whether the studio is published is everyone's.
  const rows = (await db.select({ key: app_config.key, value: app_config.value }).from(app_config).orderBy(app_config.key)).filter((r) => r.key !== setupSkippedKey);
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  const defaults: Record<string, string> = appConfigDefaults;
  const entries: AppConfigEntry[] = rows.map((r) => ({
    key: r.key,
    value: isValidAppConfigValue(r.key, r.value) ? r.value : (defaults[r.key] ?? r.value),
  }));
  for (const [key, value] of Object.entries(appConfigDefaults)) {
    if (!stored.has(key)) entries.push({ key, value });
  }
  // A studio with no row is new and not published yet (decision 129): the portal shows "Próximamente" until its owner publishes.
  const published = entries.find((e) => e.key === studioPublishedKey);
  if (published) published.value = String(isStudioPublished(published.value));
  else entries.push({ key: studioPublishedKey, value: 'false' });
  const firebase = entries.find((e) => e.key === 'firebaseConfig');
  if (firebase) firebase.value = firebaseConfigValue(config);
  if (options.includePrivate) return entries;
  const hidden = new Set<string>(appConfigPrivateKeys);
  return entries.filter((e) => !hidden.has(e.key));
}

/** The password policy configured by the password_* keys. */
export async function loadPasswordPolicy(db: Db): Promise<PasswordPolicy> {
  const rows = await db
    .select({ key: app_config.key, value: app_config.value })
    .from(app_config)
    .where(like(app_config.key, 'password\\_%'));
  const map: Record<string, string> = { ...appConfigDefaults };
  for (const r of rows) map[r.key] = r.value;
  return passwordPolicyFromConfig(map);
}

/** Throws auth/weak-password with the first broken rule's Spanish text. */
export async function assertPasswordAllowed(db: Db, password: string): Promise<void> {
  const policy = await loadPasswordPolicy(db);
  const [rule] = checkPassword(password, policy);
  if (rule) throw new DomainError('auth/weak-password', `${passwordRuleTexts[rule](policy)}`);
}
