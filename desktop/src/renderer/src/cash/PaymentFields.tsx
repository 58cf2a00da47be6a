import { Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { changeDueCents, drawerAmount, formatMXN, fromCents, terminalSlip, texts, toCents, type TerminalSlip } from '@estudio/core';
import { useState } from 'react';

const t = texts.cashDrawer;

export interface SlipText {
  last4: string;
  authorization: string;
}

/** How a sale at the counter is being paid, as typed: what the customer hands over, the terminal's slip. */
export function usePaymentEntry() {
  const [tendered, setTendered] = useState('');
  const [slip, setSlip] = useState<SlipText>({ last4: '', authorization: '' });
  const reset = () => {
    setTendered('');
    setSlip({ last4: '', authorization: '' });
  };
  return { tendered, setTendered, slip, setSlip, reset };
}

/**
 * What the typed payment says for a total: cash at the counter gives the
 * change before the sale is recorded (or how much is missing); a card on the
 * counter's terminal needs the slip's last four digits and authorization.
 * `provider` is the chosen payment method's; null while none is chosen.
 */
export function checkPayment(provider: string | null | undefined, totalCents: number | null, entry: { tendered: string; slip: SlipText }) {
  const takesCash = provider !== null && provider !== undefined && provider !== 'card' && provider !== 'paypal';
  const onTerminal = provider === 'card';
  const checkedSlip = onTerminal ? terminalSlip.safeParse(entry.slip) : null;
  const slipProblems: { last4?: string; authorization?: string } = {};
  for (const issue of checkedSlip?.error?.issues ?? []) {
    const field = issue.path[0] === 'last4' ? 'last4' : 'authorization';
    slipProblems[field] ??= issue.message;
  }
  const received = takesCash && entry.tendered.trim() !== '' ? drawerAmount('lo recibido').safeParse(entry.tendered) : null;
  const change = totalCents !== null && received?.success ? changeDueCents(totalCents, toCents(received.data)) : null;
  const tenderedProblem =
    received && !received.success
      ? (received.error.issues[0]?.message ?? null)
      : totalCents !== null && received?.success && change === null
        ? t.tenderedShort(formatMXN(totalCents - toCents(received.data)))
        : null;
  return {
    takesCash,
    onTerminal,
    slip: checkedSlip?.success ? (checkedSlip.data as TerminalSlip) : null,
    slipProblems,
    tendered: received?.success ? received.data : null,
    change: change === null ? null : fromCents(change),
    changeCents: change,
    tenderedProblem,
  };
}
export type PaymentCheck = ReturnType<typeof checkPayment>;

/** The fields of the payment: "Recibido" and the change for cash, the slip for a card on the terminal. */
export function PaymentFields({
  check,
  entry,
  errors,
  onEdit,
}: {
  check: PaymentCheck;
  entry: ReturnType<typeof usePaymentEntry>;
  errors: { tendered?: string | undefined; last4?: string | undefined; authorization?: string | undefined };
  /** A field changed: its refusal goes. */
  onEdit: (field: 'tendered' | 'last4' | 'authorization') => void;
}) {
  return (
    <>
      {check.takesCash && (
        <TextInput
          label={t.tendered}
          description={t.tenderedHint}
          leftSection="$"
          inputMode="decimal"
          value={entry.tendered}
          error={errors.tendered ?? check.tenderedProblem}
          onChange={(e) => {
            entry.setTendered(e.currentTarget.value);
            onEdit('tendered');
          }}
          data-testid="cash-tendered"
        />
      )}
      {check.onTerminal && (
        <SimpleGrid cols={2}>
          <TextInput
            label={t.last4}
            inputMode="numeric"
            maxLength={4}
            value={entry.slip.last4}
            error={errors.last4}
            onChange={(e) => {
              // Read now: the event's currentTarget is gone by the time React runs the updater.
              const value = e.currentTarget.value;
              entry.setSlip((x) => ({ ...x, last4: value }));
              onEdit('last4');
            }}
          />
          <TextInput
            label={t.authorization}
            value={entry.slip.authorization}
            error={errors.authorization}
            onChange={(e) => {
              // Read now: the event's currentTarget is gone by the time React runs the updater.
              const value = e.currentTarget.value;
              entry.setSlip((x) => ({ ...x, authorization: value }));
              onEdit('authorization');
            }}
          />
        </SimpleGrid>
      )}
      {check.changeCents !== null && (
        <Text fw={700} size="lg" data-testid="cash-change">
          {t.change(formatMXN(check.changeCents))}
        </Text>
      )}
    </>
  );
}

/** "Forma de pago": the studio's payment methods the counter takes. */
export function PaymentMethodSelect({
  methods,
  value,
  error,
  onChange,
}: {
  methods: readonly { payment_method_id: number; name: string }[];
  value: string | null;
  error?: string | undefined;
  onChange: (value: string | null) => void;
}) {
  return (
    <Select
      label={texts.desk.paymentMethod}
      value={value}
      error={error}
      onChange={onChange}
      data={methods.map((m) => ({ value: String(m.payment_method_id), label: m.name }))}
    />
  );
}
