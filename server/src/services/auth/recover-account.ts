import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { messagingChannels } from '../messages/channels.ts';
import type { IdentityProvider } from './identity-provider.ts';

/**
 * POST /api/auth/recover (decision 079): the reset link is written to the
 * outbox as always (it goes if e-mail is set up while it is still valid),
 * and the answer says whether the studio can send e-mail now: with 'none'
 * the portal does not say a mail was sent, and tells her how to get back in
 * through the studio. The answer never depends on whether the e-mail has an
 * account.
 */
export async function recoverAccount(db: Db, config: Config, identity: IdentityProvider, email: string): Promise<{ ok: true; delivery: 'email' | 'none' }> {
  await identity.recover(db, email);
  return { ok: true, delivery: (await messagingChannels(db, config)).email ? 'email' : 'none' };
}
