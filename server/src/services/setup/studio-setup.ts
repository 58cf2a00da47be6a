import { and, count, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  appConfigDefaults,
  configMap,
  documentTemplates,
  hasTemplatePlaceholder,
  isOn,
  isStudioPublished,
  isValidAppConfigValue,
  parseSkippedSteps,
  requiredDocumentOf,
  setupSkippedKey,
  setupStepKeys,
  skippedStepsValue,
  studioPublishedKey,
  studioSetupTexts,
  studioTimeZone,
  type SetupStepKey,
  type SetupStepOutput,
  type StudioSetupOutput,
} from '@estudio/core';
import { app_config } from '@estudio/db/schema/app-config';
import { class_type, instructor, location } from '@estudio/db/schema/catalogue';
import { page } from '@estudio/db/schema/content';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import { single_class } from '@estudio/db/schema/schedule';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { messagingChannels } from '../messages/channels.ts';
import { createPage } from '../pages/save-page.ts';

const d = studioSetupTexts.detail;

/** The stored app_config rows, without the defaults: a step is the owner's once she has written it, not a default. */
async function storedConfig(db: Db): Promise<Map<string, string>> {
  const rows = await db.select({ key: app_config.key, value: app_config.value }).from(app_config);
  return new Map(rows.filter((r) => isValidAppConfigValue(r.key, r.value)).map((r) => [r.key, r.value]));
}

const filled = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';
/** A page's HTML with something to read in it. */
const hasText = (html: string | null) => (html ?? '').replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim() !== '';

interface StepFacts {
  done: boolean;
  detail: string | null;
  action?: SetupStepOutput['action'];
}

/**
 * Each step's facts, read from the studio's data (decision 129): nothing here
 * is a stored "done" flag, so a location deleted later makes its step pending
 * again, and a studio brought over by another road shows what it has.
 */
async function stepFacts(db: Db, config: Config, stored: Map<string, string>, now: Date): Promise<Record<SetupStepKey, StepFacts>> {
  const [[locations], [types], [withSeats], [coaches], [packages], [upcoming], pages, methods, channels] = await Promise.all([
    db.select({ n: count() }).from(location).where(eq(location.available, true)),
    db.select({ n: count() }).from(class_type).where(eq(class_type.available, true)),
    db.select({ n: count() }).from(class_type).where(and(eq(class_type.available, true), isNotNull(class_type.spot_map))),
    db.select({ n: count() }).from(instructor).where(and(eq(instructor.available, true), isNull(instructor.deletedAt))),
    db
      .select({ n: count() })
      .from(class_package)
      .where(and(eq(class_package.available, true), isNull(class_package.deletedAt), gt(class_package.price, '0'))),
    db.select({ n: count() }).from(single_class).where(and(gt(single_class.class_date, now), isNull(single_class.cancelledAt))),
    db.select({ slug: page.slug, title: page.title, required: page.required, content: page.content }).from(page),
    db.select({ provider: payment_method.provider }).from(payment_method).where(eq(payment_method.available, true)),
    messagingChannels(db, config),
  ]);
  const n = (row: { n: number } | undefined) => Number(row?.n ?? 0);

  // Name and logo are the owner's to choose; the colours have defaults that work, so they only get a reminder.
  const missing = [...(filled(stored.get('business_name')) ? [] : [d.name]), ...(filled(stored.get('navbar_logo')) ? [] : [d.logo])];
  const colours = ['primary', 'secondary', 'accent'].some((key) => stored.has(key));
  const identity = { done: missing.length === 0, detail: missing.length ? d.missing(missing) : colours ? null : d.demoColours };

  // The zone in effect is right for most studios in Mexico, but only the owner knows: stored once she confirms it.
  const zoneStored = stored.has('timezone') || stored.has('timezone_offset');
  const zone = studioTimeZone(configMap([...stored].map(([key, value]) => ({ key, value }))));
  const timezone: StepFacts = { done: zoneStored, detail: zoneStored ? d.zoneStored(zone) : d.zoneDefault(zone), action: zoneStored ? null : 'confirmTimezone' };

  const documents = (['terms', 'privacy'] as const).map((kind) => {
    const name = kind === 'terms' ? d.terms : d.privacy;
    const found = pages.filter((p) => requiredDocumentOf(p) === kind);
    if (!found.length) return name;
    if (!found.some((p) => p.required)) return d.notRequired(name);
    if (!found.some((p) => p.required && hasText(p.content))) return d.empty(name);
    if (!found.some((p) => p.required && hasText(p.content) && !hasTemplatePlaceholder(p.content))) return d.unfinished(name);
    return null;
  });
  const documentsAbsent = (['terms', 'privacy'] as const).some((kind) => !pages.some((p) => requiredDocumentOf(p) === kind));
  const documentsMissing = documents.filter((m): m is string => m !== null);

  const providers = new Set(methods.map((m) => m.provider));
  const cardReal = providers.has('card') && Boolean(config.STRIPE_SECRET_KEY);
  const cashEffective = providers.has('cash') && isOn(stored.get('cash_checkout_enabled') ?? appConfigDefaults.cash_checkout_enabled);
  // Only transfer details the owner saved count: a CLABE, or an empty one she chose (customers pay at reception).
  const cashReady = cashEffective && stored.has('bank_clabe');
  const paypalReady = providers.has('paypal') && isOn(stored.get('paypal_enabled')) && Boolean(config.PAYPAL_CLIENT_ID && config.PAYPAL_SECRET);
  const paymentLines = providers.size === 0 ? [d.noPaymentMethods] : [...(providers.has('card') ? [cardReal ? d.cardReady : d.cardSandbox] : []), ...(cashEffective ? [cashReady ? d.cashReady : d.cashNoBank] : [])];

  return {
    identity,
    timezone,
    locations: { done: n(locations) > 0, detail: d.locations(n(locations)) },
    classTypes: { done: n(types) > 0, detail: d.classTypes(n(types), n(withSeats)) },
    coaches: { done: n(coaches) > 0, detail: d.coaches(n(coaches)) },
    packages: { done: n(packages) > 0, detail: d.packages(n(packages)) },
    schedule: { done: n(upcoming) > 0, detail: d.schedule(n(upcoming)) },
    pages: { done: documentsMissing.length === 0, detail: documentsMissing.length ? d.missing(documentsMissing) : null, action: documentsAbsent ? 'createDocumentTemplates' : null },
    payments: { done: cardReal || cashReady || paypalReady, detail: paymentLines.join(' ') || null, action: providers.size === 0 ? 'addPaymentMethods' : null },
    messages: { done: channels.email || channels.whatsapp, detail: d.channels(channels.email, channels.whatsapp) },
  };
}

/**
 * Where the studio stands in its first run (decision 129): each step in
 * order, whether the data says it is done, whether the owner skipped it for
 * now, and whether the portal is open to the public.
 */
export async function getStudioSetup(db: Db, config: Config, now = new Date()): Promise<StudioSetupOutput> {
  const stored = await storedConfig(db);
  const facts = await stepFacts(db, config, stored, now);
  const skipped = new Set(parseSkippedSteps(stored.get(setupSkippedKey)));
  const steps: SetupStepOutput[] = setupStepKeys.map((key) => ({
    key,
    ...studioSetupTexts.steps[key],
    done: facts[key].done,
    // A step done since it was skipped is simply done.
    skipped: !facts[key].done && skipped.has(key),
    detail: facts[key].detail,
    action: facts[key].done ? null : (facts[key].action ?? null),
  }));
  return { published: isStudioPublished(stored.get(studioPublishedKey)), steps, done: steps.filter((s) => s.done).length, total: steps.length };
}

/** Writes one first-run row of app_config (its key is not a setting of PUT /api/appconfig). */
async function storeRow(tx: Db, key: string, value: string, actorId: number): Promise<void> {
  await tx
    .insert(app_config)
    .values({ key, value, updated_by: actorId })
    .onConflictDoUpdate({ target: app_config.key, set: { value, updated_by: actorId, updatedAt: sql`now()` } });
}

/** Reads a first-run row under a lock, so two owners' clicks at once change it one after the other. */
async function lockedRow(tx: Db, key: string): Promise<string | undefined> {
  const [row] = await tx.select({ value: app_config.value }).from(app_config).where(eq(app_config.key, key)).for('update');
  return row?.value;
}

/** Skips a step of Primeros pasos for now, or takes it back; audited when it changes (Actividad). */
export async function skipSetupStep(db: Db, config: Config, actorId: number, step: SetupStepKey, skipped: boolean): Promise<StudioSetupOutput> {
  await db.transaction(async (tx) => {
    const current = parseSkippedSteps(await lockedRow(tx, setupSkippedKey));
    if (current.includes(step) === skipped) return;
    await storeRow(tx, setupSkippedKey, skippedStepsValue(current, step, skipped), actorId);
    await recordAudit(tx, { actorId, action: skipped ? 'setup.skip' : 'setup.unskip', entity: 'app_config', entityId: setupSkippedKey, changes: { step } });
  });
  return getStudioSetup(db, config);
}

/**
 * Opens the portal to the public, or closes it again behind "Próximamente".
 * Allowed with steps pending: the owner decides, and the console lists them
 * before she confirms. Audited when it changes (Actividad).
 */
export async function publishStudio(db: Db, config: Config, actorId: number, published: boolean): Promise<StudioSetupOutput> {
  await db.transaction(async (tx) => {
    if (isStudioPublished(await lockedRow(tx, studioPublishedKey)) === published) return;
    await storeRow(tx, studioPublishedKey, String(published), actorId);
    await recordAudit(tx, { actorId, action: published ? 'studio.publish' : 'studio.unpublish', entity: 'app_config', entityId: studioPublishedKey, changes: { published } });
  });
  return getStudioSetup(db, config);
}

/** What "Próximamente" shows of an unpublished studio: only what its owner stored, not the neutral defaults. */
export interface StudioFront {
  name: string | null;
  logo: string | null;
  favicon: string | null;
  primary: string | null;
}

export async function readStudioFront(db: Db): Promise<StudioFront> {
  const rows = await db
    .select({ key: app_config.key, value: app_config.value })
    .from(app_config)
    .where(inArray(app_config.key, ['business_name', 'navbar_logo', 'favicon', 'primary']));
  const stored = new Map(rows.filter((r) => isValidAppConfigValue(r.key, r.value)).map((r) => [r.key, r.value]));
  const own = (key: string) => (filled(stored.get(key)) ? stored.get(key)! : null);
  return { name: filled(stored.get('business_name')) ? stored.get('business_name')!.trim() : null, logo: own('navbar_logo'), favicon: own('favicon'), primary: stored.get('primary') ?? null };
}

/**
 * The terms and the privacy notice a studio does not have yet, created from core's templates with its name and
 * marked required (decision 130): its customers accept them at sign-up. The step stays pending until the owner
 * completes what the template marks.
 */
export async function createDocumentTemplates(db: Db, config: Config): Promise<StudioSetupOutput> {
  const stored = await storedConfig(db);
  const existing = await db.select({ slug: page.slug, title: page.title }).from(page);
  for (const template of documentTemplates(stored.get('business_name') ?? '')) {
    if (existing.some((p) => requiredDocumentOf(p) === template.kind || p.slug === template.slug)) continue;
    await createPage(db, { slug: template.slug, title: template.title, content: template.content, required: true });
  }
  return getStudioSetup(db, config);
}
