import { eq } from 'drizzle-orm';
import { app_config } from '@estudio/db/schema/app-config';
import { auth_user, password_reset } from '@estudio/db/schema/identity';
import { outbox_message } from '@estudio/db/schema/outbox';
import { appConfigDefaults, mailTexts } from '@estudio/core';
import type { Db } from '../../db.ts';
import { hashToken, randomToken } from './tokens.ts';

export interface RecoverSettings {
  publicUrl: string;
  resetTtlMinutes: number;
}

/**
 * Writes a one-time reset code and its e-mail to the outbox, in one
 * transaction. Unknown e-mails write nothing; the caller answers the same
 * either way.
 */
export async function recoverPassword(db: Db, settings: RecoverSettings, email: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ uid: auth_user.uid, email: auth_user.email }).from(auth_user).where(eq(auth_user.email, email)).limit(1);
    if (!user) return;
    const token = randomToken();
    await tx.insert(password_reset).values({
      uid: user.uid,
      token_hash: hashToken(token),
      expires_at: new Date(Date.now() + settings.resetTtlMinutes * 60_000),
    });
    const [nameRow] = await tx.select({ value: app_config.value }).from(app_config).where(eq(app_config.key, 'business_name')).limit(1);
    const businessName = nameRow?.value || appConfigDefaults.business_name;
    const link = `${settings.publicUrl}/recuperar?token=${encodeURIComponent(token)}`;
    await tx.insert(outbox_message).values({
      channel: 'email',
      recipient: user.email,
      subject: mailTexts.passwordReset.subject(businessName),
      body: mailTexts.passwordReset.body(businessName, link, settings.resetTtlMinutes),
    });
  });
}
