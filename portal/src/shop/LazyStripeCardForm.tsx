import { lazy, Suspense, type ComponentProps } from 'react';
import { Skeleton } from '@mantine/core';

/**
 * Stripe Elements, loaded only where a card is typed with Stripe (stripe_public
 * set): a studio on the sandbox, and every page without a card form, never
 * downloads Stripe's code nor requests Stripe.js.
 */
const StripeCardForm = lazy(() => import('../pages/checkout/StripeCardForm.tsx').then((m) => ({ default: m.StripeCardForm })));

export function LazyStripeCardForm(props: ComponentProps<typeof StripeCardForm>) {
  return (
    <Suspense fallback={<Skeleton h={120} radius="md" />}>
      <StripeCardForm {...props} />
    </Suspense>
  );
}
