import type { MessagingChannels } from '@estudio/core';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { resolveMessaging } from './messaging-settings.ts';

/**
 * Which channels the studio can send by now (its settings, else the
 * server's environment): what the portal and the console say about a
 * message, so neither says it was sent when it waits (decision 079).
 */
export async function messagingChannels(db: Db, config: Config): Promise<MessagingChannels> {
  const resolved = await resolveMessaging(db, config);
  return { email: resolved.email !== null, whatsapp: resolved.whatsapp !== null };
}
