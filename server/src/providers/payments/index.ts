import type { Config } from '../../config.ts';
import { createPayPalClient, type PayPalClient } from './paypal.ts';
import { createSandboxProvider } from './sandbox.ts';
import { createStripeClient, createStripeProvider } from './stripe.ts';
import type { CardProvider } from './types.ts';
import type Stripe from 'stripe';

export type { CardProvider } from './types.ts';
export type { PayPalClient } from './paypal.ts';

export interface PaymentProviders {
  /** Stripe when STRIPE_SECRET_KEY is set, otherwise the embedded sandbox. */
  card: CardProvider;
  stripe: Stripe | null;
  /** Null unless PAYPAL_CLIENT_ID and PAYPAL_SECRET are set. */
  paypal: PayPalClient | null;
}

const cache = new WeakMap<Config, PaymentProviders>();

/** The payment providers of a configuration, built once per Config object. */
export function paymentProviders(config: Config): PaymentProviders {
  const cached = cache.get(config);
  if (cached) return cached;
  const stripe = config.STRIPE_SECRET_KEY ? createStripeClient(config) : null;
  const providers: PaymentProviders = {
    card: stripe ? createStripeProvider(stripe) : createSandboxProvider(config.AUTH_SECRET),
    stripe,
    paypal:
      config.PAYPAL_CLIENT_ID && config.PAYPAL_SECRET
        ? createPayPalClient({ base: config.PAYPAL_API_BASE, clientId: config.PAYPAL_CLIENT_ID, secret: config.PAYPAL_SECRET })
        : null,
  };
  cache.set(config, providers);
  return providers;
}
