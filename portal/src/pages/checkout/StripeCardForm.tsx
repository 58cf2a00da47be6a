import { useMemo, useState, type FormEvent } from 'react';
import { Box, Button, Input, Stack } from '@mantine/core';
import { DeclinedNotice } from './DeclinedNotice.tsx';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
// The pure entry loads Stripe.js when loadStripe is called, not when this module is imported.
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { texts } from '@estudio/core';

export interface StripeCardResult {
  /** The PaymentMethod id Stripe made from the card. */
  token: string;
  brand: string;
  last4: string;
  /** Confirms the attempt's clientSecret with Stripe (3-D Secure included); resolves to an error message or null. */
  confirm: (clientSecret: string) => Promise<string | null>;
}

interface StripeCardFormProps {
  email: string;
  disabled: boolean;
  paying: boolean;
  onPay: (card: StripeCardResult) => void;
  onError: (message: string) => void;
  /** Why the last payment was declined: said beside the card, above the button. */
  declined?: string | null | undefined;
  /** The button's words: 'Pagar Ahora' unless told ('Comenzar prueba gratis', 'Guardar tarjeta'). */
  submitLabel?: string;
}

const stripeCache = new Map<string, Promise<Stripe | null>>();

function CardFields({ email, disabled, paying, onPay, onError, declined, submitLabel = texts.checkout.payNow }: StripeCardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [empty, setEmpty] = useState(true);
  const [creating, setCreating] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setCreating(true);
    try {
      const { paymentMethod, error } = await stripe.createPaymentMethod({ type: 'card', card, billing_details: { email } });
      if (error || !paymentMethod) {
        onError(error?.message ? texts.checkout.confirmError(error.message) : texts.checkout.cardFormatError);
        return;
      }
      onPay({
        token: paymentMethod.id,
        brand: paymentMethod.card?.brand ?? 'other',
        last4: paymentMethod.card?.last4 ?? '',
        confirm: async (clientSecret) => {
          // A trial answers a SetupIntent ('seti_'): the card is saved for the first charge at the trial's end.
          const result = clientSecret.startsWith('seti_')
            ? await stripe.confirmCardSetup(clientSecret, { payment_method: paymentMethod.id })
            : await stripe.confirmCardPayment(clientSecret, { payment_method: paymentMethod.id });
          return result.error ? texts.checkout.confirmError(result.error.message ?? '') : null;
        },
      });
    } finally {
      setCreating(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={texts.checkout.card}>
      <Stack gap="sm">
        <Input.Wrapper label={texts.checkout.cardNumber}>
          <Box p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-default)' }}>
            <CardElement options={{ hidePostalCode: true }} onChange={(e) => setEmpty(e.empty)} />
          </Box>
        </Input.Wrapper>
        {declined && <DeclinedNotice message={declined} />}
        <Button type="submit" size="md" fullWidth disabled={disabled || empty || !stripe} loading={paying || creating}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

/** Stripe Elements (config stripe_public set): the card goes from the browser to Stripe only. */
export function StripeCardForm({ publicKey, ...props }: StripeCardFormProps & { publicKey: string }) {
  const stripePromise = useMemo(() => {
    let promise = stripeCache.get(publicKey);
    if (!promise) {
      promise = loadStripe(publicKey);
      stripeCache.set(publicKey, promise);
    }
    return promise;
  }, [publicKey]);
  return (
    <Elements stripe={stripePromise} options={{ locale: 'es' }}>
      <CardFields {...props} />
    </Elements>
  );
}
