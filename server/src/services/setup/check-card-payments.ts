import { studioSetupTexts, type CardPaymentsCheckOutput } from '@estudio/core';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { createStripeClient } from '../../providers/payments/stripe.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

const c = studioSetupTexts.cardCheck;
type Line = CardPaymentsCheckOutput['lines'][number];

/**
 * The owner's test of card payments (decision 132): what the server's Stripe secret key can do, asked of Stripe
 * itself (GET /v1/account, which changes nothing), beside the settings that go with it. Real only when the key is
 * accepted, live, the account can charge in pesos, the portal's publishable key is of the same mode, and the webhook
 * secret is there for OXXO and SPEI.
 */
export async function checkCardPayments(db: Db, config: Config): Promise<CardPaymentsCheckOutput> {
  const secret = config.STRIPE_SECRET_KEY;
  if (!secret) return { provider: 'sandbox', ready: false, lines: [{ ok: false, text: c.noSecretKey }] };
  const live = /^(sk|rk)_live_/.test(secret);
  let account: { charges_enabled?: boolean; default_currency?: string | null; settings?: { dashboard?: { display_name?: string | null } | null } | null; business_profile?: { name?: string | null } | null };
  try {
    account = await createStripeClient(config).accounts.retrieveCurrent();
  } catch (err) {
    const type = (err as { type?: string }).type;
    const text = type === 'StripeAuthenticationError' ? c.keyRefused : type === 'StripePermissionError' ? c.keyRestricted : c.unreachable;
    return { provider: 'stripe', ready: false, lines: [{ ok: false, text }] };
  }
  const name = account.settings?.dashboard?.display_name || account.business_profile?.name || null;
  const lines: Line[] = [{ ok: true, text: c.connected(name, live) }];
  if (!live) lines.push({ ok: false, text: c.testMode });
  if (account.charges_enabled === false) lines.push({ ok: false, text: c.chargesDisabled });
  if (account.default_currency && account.default_currency !== 'mxn') lines.push({ ok: false, text: c.currency(account.default_currency.toUpperCase()) });
  const publishable = (await loadStudioSettings(db)).stripe_public.trim();
  if (!publishable) lines.push({ ok: false, text: c.noPublicKey });
  else if (publishable.startsWith('pk_live_') !== live) lines.push({ ok: false, text: c.modeMismatch(live) });
  else lines.push({ ok: true, text: c.publicKeyMatches });
  if (!config.STRIPE_WEBHOOK_SECRET) lines.push({ ok: false, text: c.noWebhookSecret });
  return { provider: 'stripe', ready: lines.every((l) => l.ok), lines };
}
