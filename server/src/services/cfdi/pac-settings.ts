import type { z } from '@estudio/core';
import type { pacSettingsOutput, pacSettingsUpdateInput } from '@estudio/core';
import { and, count, eq, gt, inArray } from 'drizzle-orm';
import { cfdi, pac_settings } from '@estudio/db/schema/cfdi';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { createFacturapiClient, type PacClient } from '../../providers/invoicing/facturapi.ts';
import { recordAudit } from '../audit/record-audit.ts';

type EnvConfig = Pick<Config, 'FACTURAPI_API_BASE'>;

export interface ResolvedPac {
  client: PacClient;
  webhookSecret: string | null;
}

async function row(db: Db) {
  const [stored] = await db.select().from(pac_settings).where(eq(pac_settings.pac_settings_id, 1));
  return stored ?? null;
}

/** Whether the owner wrote a PAC key: without one every invoice waits as pending (nothing is lost, nothing is sent). */
export async function pacConfigured(db: Db): Promise<boolean> {
  return Boolean((await row(db))?.facturapi_key);
}

/** The studio's PAC (decision 084): facturapi with the owner's key; null while there is none. */
export async function resolvePac(db: Db, config: EnvConfig): Promise<ResolvedPac | null> {
  const stored = await row(db);
  if (!stored?.facturapi_key) return null;
  return { client: createFacturapiClient(stored.facturapi_key, config.FACTURAPI_API_BASE), webhookSecret: stored.webhook_secret };
}

/** GET /api/cfdi/pac: whether a key and a webhook secret are set (never their values) and what waits. */
export async function getPacSettings(db: Db): Promise<z.infer<typeof pacSettingsOutput>> {
  const stored = await row(db);
  const [waiting] = await db.select({ n: count() }).from(cfdi).where(inArray(cfdi.status, ['pending', 'cancelling']));
  return {
    facturapi_key_set: Boolean(stored?.facturapi_key),
    webhook_secret_set: Boolean(stored?.webhook_secret),
    pending: waiting?.n ?? 0,
  };
}

/**
 * PUT /api/cfdi/pac: writes the key and the webhook secret ('' or null clears
 * one), audited as 'cambiado'/'borrado', never their values. A new key makes
 * every waiting invoice due now: what waited for a PAC goes out at the next tick.
 */
export async function updatePacSettings(db: Db, actorId: number, input: z.infer<typeof pacSettingsUpdateInput>) {
  await db.transaction(async (tx) => {
    const before = await row(tx);
    const values: { facturapi_key?: string | null; webhook_secret?: string | null } = {};
    if (input.facturapi_key !== undefined) values.facturapi_key = input.facturapi_key || null;
    if (input.webhook_secret !== undefined) values.webhook_secret = input.webhook_secret || null;
    if (Object.keys(values).length === 0) return;
    await tx
      .insert(pac_settings)
      .values({ pac_settings_id: 1, ...values })
      .onConflictDoUpdate({ target: pac_settings.pac_settings_id, set: { ...values, updatedAt: new Date() } });
    const changes: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) {
      if ((before as Record<string, unknown> | null)?.[key] === value) continue;
      changes[key] = value === null ? 'borrado' : 'cambiado';
    }
    if (Object.keys(changes).length === 0) return;
    await recordAudit(tx, { actorId, action: 'update', entity: 'pac_settings', entityId: 1, changes });
    if (changes.facturapi_key === 'cambiado') {
      const now = new Date();
      await tx.update(cfdi).set({ next_attempt_at: now }).where(and(inArray(cfdi.status, ['pending', 'cancelling']), gt(cfdi.next_attempt_at, now)));
    }
  });
  return getPacSettings(db);
}
