import { useState, type FormEvent } from 'react';
import { Alert, Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconCreditCard, IconInfoCircle } from '@tabler/icons-react';
import { DeclinedNotice } from './DeclinedNotice.tsx';
import { formatCardExpiry, parseCardExpiry, passesLuhn, purchaseErrorTexts, sandboxCardToken, texts, type SandboxCard } from '@estudio/core';

/** '4242424242424242' → '4242 4242 4242 4242' (amex 4-6-5). */
function groupDigits(digits: string): string {
  const groups = digits.startsWith('3') ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

interface SandboxCardFormProps {
  disabled: boolean;
  paying: boolean;
  /** The card as a test token: its number, expiry and CVC are checked here and stay in this component. */
  onPay: (card: SandboxCard) => void;
  /** Why the last payment was declined: said here, beside the card and above the button, never in a toast over it. */
  declined?: string | null | undefined;
  /** The button's words: 'Pagar Ahora' unless told ('Comenzar prueba gratis', 'Guardar tarjeta'). */
  submitLabel?: string;
}

/**
 * The card form of the embedded sandbox (no Stripe key configured). The typed
 * number becomes one of Stripe's test PaymentMethod ids here, in the browser,
 * with core's mapping; only that token, the brand and the last 4 digits are
 * sent. 'Pagar Ahora' stays disabled while the card is empty.
 */
export function SandboxCardForm({ disabled, paying, onPay, declined, submitLabel = texts.checkout.payNow }: SandboxCardFormProps) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<{ number?: string; expiry?: string; cvc?: string }>({});
  const digits = number.replace(/\D/g, '');
  const empty = digits.length === 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expires = parseCardExpiry(expiry);
    const found = {
      // A mistyped digit fails the Luhn check: Stripe's own form says the number is wrong, so does this one.
      number: digits.length < 13 ? texts.checkout.cardNumberIncomplete : passesLuhn(digits) ? undefined : purchaseErrorTexts.incorrectNumber,
      // MM/AA or MM/AAAA; each refusal says what to fix.
      expiry: expires.ok
        ? undefined
        : expires.reason === 'month'
          ? texts.checkout.cardExpiryMonth
          : expires.reason === 'past'
            ? texts.checkout.cardExpiryPast
            : texts.checkout.cardExpiryFormat,
      cvc: /^\d{3,4}$/.test(cvc) ? undefined : texts.checkout.cardCvcFormat,
    };
    setErrors(found);
    if (found.number || found.expiry || found.cvc || !expires.ok) return;
    onPay(sandboxCardToken(digits));
  };

  return (
    <form onSubmit={submit} noValidate aria-label={texts.checkout.card}>
      <Stack gap="sm">
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} p="xs">
          {texts.checkout.sandboxNote}
        </Alert>
        <TextInput
          label={texts.checkout.cardNumber}
          name="cardnumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          leftSection={<IconCreditCard size={18} />}
          value={number}
          onChange={(e) => setNumber(groupDigits(e.currentTarget.value.replace(/\D/g, '').slice(0, 19)))}
          error={errors.number}
        />
        {/* Side by side only when each column holds 'Vencimiento (MM/AA)' on one line; on a phone they stack, never misaligned. */}
        <SimpleGrid minColWidth="13rem" autoFlow="auto-fit" spacing="sm">
          <TextInput
            label={texts.checkout.cardExpiry}
            name="exp-date"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/AA"
            value={expiry}
            onChange={(e) => setExpiry(formatCardExpiry(e.currentTarget.value))}
            error={errors.expiry}
          />
          <TextInput
            label={texts.checkout.cardCvc}
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            value={cvc}
            onChange={(e) => setCvc(e.currentTarget.value.replace(/\D/g, '').slice(0, 4))}
            error={errors.cvc}
          />
        </SimpleGrid>
        {declined && <DeclinedNotice message={declined} />}
        <Button type="submit" size="md" fullWidth disabled={disabled || empty} loading={paying}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
