import { DomainError, effectivePriceCents } from '@estudio/core';
import type Stripe from 'stripe';
import type { Config } from '../../config.ts';
import { paymentProviders } from './index.ts';

/** The package fields Stripe's product and price are made from. */
export interface CataloguePackage {
  class_package_id: number;
  title: string;
  short_description: string | null;
  price: string;
  sale_price: string | null;
  is_subscription: boolean;
  subscription_period: 'day' | 'week' | 'month' | 'year' | null;
  subscription_interval: number | null;
  stripe_product_id: string | null;
  stripe_price_id: string | null;
  /** The time of this write; it names the price's idempotency key, so a retried write reuses the price it made. */
  updatedAt: Date;
}

export interface StripeIds {
  stripe_product_id: string;
  stripe_price_id: string;
}

/**
 * Keeps a package's Stripe Product and Price in step with the package
 * (admin console). Stripe prices cannot change their amount: a new amount or
 * billing period makes a new Price and archives the old one, so running
 * subscriptions keep theirs while new ones use the new one.
 */
export interface PackageCatalogue {
  /** Creates or updates the product and, when the charged terms changed, the price. `previous` is null on create. */
  sync(pkg: CataloguePackage, previous: CataloguePackage | null): Promise<StripeIds>;
  /** A deleted package: its product and price stop being offered. */
  archive(ids: { stripe_product_id: string | null; stripe_price_id: string | null }): Promise<void>;
}

/** What Stripe charges: the sale price when set, and the billing period of a subscription. */
function priceTerms(p: CataloguePackage): string {
  const recurring = p.is_subscription ? `${p.subscription_period ?? 'month'}x${p.subscription_interval ?? 1}` : 'once';
  return `${effectivePriceCents(p)}:${recurring}`;
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    // The Stripe error stays as the cause for the logs; the admin sees the catalogue text and the write rolls back.
    throw Object.assign(new DomainError('package/stripe-error'), { cause: err });
  }
}

export function createStripeCatalogue(stripe: Stripe): PackageCatalogue {
  return {
    sync: (pkg, previous) =>
      guarded(async () => {
        const metadata = { class_package_id: String(pkg.class_package_id) };
        let productId = pkg.stripe_product_id;
        let newProduct = false;
        if (!productId) {
          const product = await stripe.products.create(
            { name: pkg.title, ...(pkg.short_description ? { description: pkg.short_description } : {}), metadata },
            { idempotencyKey: `package-${pkg.class_package_id}-product` },
          );
          productId = product.id;
          newProduct = true;
        } else if (previous && (previous.title !== pkg.title || previous.short_description !== pkg.short_description)) {
          await stripe.products.update(productId, { name: pkg.title, description: pkg.short_description ?? '' });
        }

        let priceId = pkg.stripe_price_id;
        // A price made by checkout before the package had a product of its own hangs off another product: replace it too.
        if (!priceId || newProduct || !previous || priceTerms(previous) !== priceTerms(pkg)) {
          const price = await stripe.prices.create(
            {
              product: productId,
              currency: 'mxn',
              unit_amount: effectivePriceCents(pkg),
              ...(pkg.is_subscription
                ? { recurring: { interval: pkg.subscription_period ?? 'month', interval_count: pkg.subscription_interval ?? 1 } }
                : {}),
              metadata,
            },
            { idempotencyKey: `package-${pkg.class_package_id}-price-${pkg.updatedAt.getTime()}` },
          );
          if (priceId) await stripe.prices.update(priceId, { active: false });
          priceId = price.id;
        }
        return { stripe_product_id: productId, stripe_price_id: priceId };
      }),

    archive: (ids) =>
      guarded(async () => {
        if (ids.stripe_price_id) await stripe.prices.update(ids.stripe_price_id, { active: false });
        if (ids.stripe_product_id) await stripe.products.update(ids.stripe_product_id, { active: false });
      }),
  };
}

/** The package catalogue of a configuration: Stripe when STRIPE_SECRET_KEY is set, otherwise none (nothing is called). */
export function packageCatalogue(config: Config): PackageCatalogue | null {
  const { stripe } = paymentProviders(config);
  return stripe ? createStripeCatalogue(stripe) : null;
}
