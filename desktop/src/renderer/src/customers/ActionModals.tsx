import { Alert, Button, Checkbox, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput, UnstyledButton } from '@mantine/core';
import { activityTexts, isReasonGiven, seatStates, texts, toCents } from '@estudio/core';
import { useEffect, useState, type FormEvent } from 'react';
import { dateTimeOf, errorCode, errorText, money } from '../format.ts';
import { useSavedNotice } from '../saved.ts';
import { trpc, type DeskOutputs } from '../trpc.ts';
import { SaleReceipt, type ReceiptData } from '../cash/Receipt.tsx';
import { checkPayment, PaymentFields, PaymentMethodSelect, usePaymentEntry } from '../cash/PaymentFields.tsx';
import { CounterWarnings } from './CounterWarnings.tsx';

const t = texts.desk;
type Person = DeskOutputs['customers']['card']['customer'];
interface ModalProps {
  opened: boolean;
  onClose: () => void;
  customer: Person;
}

const fullName = (c: Person) => `${c.name} ${c.last_name}`;

/**
 * Books a class for a customer at the counter, with a seat picked on the class type's map. A customer with no
 * credits for it is offered the sale at once (`onSell`), instead of being told to go and find it.
 */
export function WalkInModal({ opened, onClose, customer, onSell }: ModalProps & { onSell?: () => void }) {
  const saved = useSavedNotice();
  const classes = trpc.customers.bookableClasses.useQuery(undefined, { enabled: opened });
  const [classId, setClassId] = useState<string | null>(null);
  const [spot, setSpot] = useState<number | null>(null);
  const [guest, setGuest] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [noCredits, setNoCredits] = useState(false);
  const [errors, setErrors] = useState<{ class?: string; seat?: string }>({});
  const walkIn = trpc.actions.walkIn.useMutation();
  useEffect(() => {
    if (!opened) return;
    setClassId(null);
    setSpot(null);
    setGuest('');
    setProblem(null);
    setNoCredits(false);
    setErrors({});
  }, [opened]);
  const chosen = classes.data?.find((c) => String(c.single_class_id) === classId);
  const rows = seatStates(chosen?.spot_map, chosen?.takenSpots ?? [], chosen ? chosen.capacity - chosen.booked : 0);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { class: chosen ? undefined : t.pickClass, seat: chosen && rows.length && spot === null ? t.pickSeat : undefined };
    setErrors(found);
    if (!chosen || found.class || found.seat) return;
    try {
      await walkIn.mutateAsync({ customer_id: customer.customer_id, single_class_id: chosen.single_class_id, spot, guest: guest.trim() || null });
      saved(t.walkInDone);
      onClose();
    } catch (e) {
      setProblem(errorText(e));
      setNoCredits(errorCode(e) === 'booking/no-credits');
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={`${t.walkInTitle} ${fullName(customer)}`} size="lg">
      <form onSubmit={submit}>
        <Stack>
          {problem && (
            <Alert color="red" role="alert">
              <Stack gap="xs">
                <Text size="sm">{problem}</Text>
                {noCredits && onSell && (
                  <div>
                    <Button size="xs" color="teal" onClick={onSell} data-testid="sell-instead">
                      {t.sellPackageInstead}
                    </Button>
                  </div>
                )}
              </Stack>
            </Alert>
          )}
          <CounterWarnings customerId={customer.customer_id} customerName={fullName(customer)} compact />
          <Select
            label={t.walkInClass}
            searchable
            data-autofocus
            value={classId}
            error={errors.class}
            onChange={(v) => {
              setClassId(v);
              setSpot(null);
              setErrors({});
            }}
            data={(classes.data ?? []).map((c) => {
              const full = c.booked >= c.capacity;
              const mine = c.customerIds.includes(customer.customer_id);
              return {
                value: String(c.single_class_id),
                label: `${dateTimeOf(c.class_date)} · ${c.class_type} · ${c.location} (${c.booked}/${c.capacity})${full ? ` · ${t.walkInFull}` : ''}`,
                disabled: full || mine,
              };
            })}
          />
          {chosen &&
            (rows.length ? (
              <Stack gap={6}>
                <Text size="sm" fw={500}>{t.walkInSeat}</Text>
                {rows.map((row) => (
                  <Group key={row.row} gap={6} justify="center">
                    {row.seats.map(({ seat, state }) => {
                      const taken = state !== 'free';
                      return (
                        <UnstyledButton
                          key={seat}
                          disabled={taken}
                          onClick={() => {
                            setSpot(seat);
                            setErrors({});
                          }}
                          aria-pressed={spot === seat}
                          aria-label={`${t.seat} ${seat}`}
                          style={{
                            width: 40,
                            height: 40,
                            borderRadius: 8,
                            textAlign: 'center',
                            fontWeight: 600,
                            background: taken ? 'var(--mantine-color-gray-3)' : spot === seat ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-teal-0)',
                            color: taken ? 'var(--mantine-color-gray-6)' : spot === seat ? 'white' : 'var(--mantine-color-teal-9)',
                            cursor: taken ? 'not-allowed' : 'pointer',
                          }}
                        >
                          {seat}
                        </UnstyledButton>
                      );
                    })}
                  </Group>
                ))}
                <Text ta="center" size="xs" c="dimmed">Coach</Text>
                {errors.seat && <Text size="sm" c="red" ta="center">{errors.seat}</Text>}
              </Stack>
            ) : (
              <Text size="sm" c="dimmed">{t.walkInNoSeatMap}</Text>
            ))}
          <TextInput label={t.walkInGuest} value={guest} onChange={(e) => setGuest(e.currentTarget.value)} maxLength={120} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t.cancel}</Button>
            <Button type="submit" loading={walkIn.isPending}>{t.walkIn}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Grants a package: as a gift or paid at the desk (with the payment method), for the package's days or a number staff type. */
export function GiveAccessModal({ opened, onClose, customer }: ModalProps) {
  const saved = useSavedNotice();
  const options = trpc.customers.accessOptions.useQuery(undefined, { enabled: opened });
  const [packageId, setPackageId] = useState<string | null>(null);
  const [days, setDays] = useState<number | string>('');
  const [gift, setGift] = useState(false);
  const [methodId, setMethodId] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const entry = usePaymentEntry();
  const [receipt, setReceipt] = useState<ReceiptData | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ package?: string; days?: string; method?: string; reason?: string; tendered?: string; last4?: string; authorization?: string }>({});
  const give = trpc.actions.giveAccess.useMutation();
  const me = trpc.session.get.useQuery().data?.user ?? null;
  useEffect(() => {
    if (!opened) return;
    setPackageId(null);
    setDays('');
    setGift(false);
    setMethodId(null);
    setReason('');
    entry.reset();
    setReceipt(null);
    setProblem(null);
    setErrors({});
  }, [opened]);
  const chosen = options.data?.packages.find((p) => String(p.class_package_id) === packageId);
  const method = options.data?.paymentMethods.find((m) => String(m.payment_method_id) === methodId) ?? null;
  const pay = checkPayment(gift ? null : method?.provider, chosen ? toCents(chosen.price) : null, entry);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      package: chosen ? undefined : t.pickPackage,
      days: days !== '' && (!Number.isInteger(Number(days)) || Number(days) < 1) ? t.daysInvalid : undefined,
      method: !gift && !methodId ? t.pickPaymentMethod : undefined,
      // A gift needs a reason (decision 037); the server says it too.
      reason: gift && !isReasonGiven(reason) ? activityTexts.reasonRequired : undefined,
      tendered: pay.tenderedProblem ?? undefined,
      ...pay.slipProblems,
    };
    setErrors(found);
    if (!chosen || found.package || found.days || found.method || found.reason || found.tendered || found.last4 || found.authorization) return;
    try {
      await give.mutateAsync({
        customer_id: customer.customer_id,
        class_package_id: chosen.class_package_id,
        package_days: days === '' ? null : Number(days),
        is_gift: gift,
        payment_method_id: gift ? null : Number(methodId),
        // Money taken is always a charge (decision 116); a gift takes none.
        bill: !gift,
        reason: reason.trim() || null,
        terminal: pay.slip,
      });
      saved(t.accessAdded);
      if (gift) return onClose();
      // The sale's receipt, to print on the counter's roll.
      setReceipt({
        studio: options.data?.studio ?? { name: '', location: '', email: '', whatsapp: '' },
        at: new Date().toISOString(),
        customer: fullName(customer),
        seller: me ? `${me.name} ${me.last_name}` : '',
        lines: [{ title: chosen.title, amount: chosen.price }],
        total: chosen.price,
        method: pay.slip ? texts.cashDrawer.terminalText(method?.name ?? '', pay.slip.last4, pay.slip.authorization) : (method?.name ?? ''),
        tendered: pay.tendered,
        change: pay.change,
      });
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={`${t.giveAccess}: ${fullName(customer)}`}>
      {receipt ? (
        <SaleReceipt receipt={receipt} onDone={onClose} />
      ) : (
      <form onSubmit={submit}>
        <Stack>
          {problem && <Alert color="red" role="alert">{problem}</Alert>}
          <Select
            label={t.package}
            searchable
            data-autofocus
            value={packageId}
            error={errors.package}
            onChange={(v) => {
              setPackageId(v);
              setErrors((e) => ({ ...e, package: undefined }));
            }}
            data={(options.data?.packages ?? []).map((p) => ({
              value: String(p.class_package_id),
              label: `${p.title} · ${money(p.price)}`,
            }))}
          />
          <NumberInput
            label={t.packageDays}
            description={chosen?.expiration_days ? `${t.packageDaysHint} (${chosen.expiration_days})` : t.packageDaysHint}
            // No clamping: a 0 typed here used to become 1 on blur; now it stays 0 and is refused in words.
            clampBehavior="none"
            allowDecimal={false}
            allowNegative={false}
            value={days}
            error={errors.days}
            onChange={(v) => {
              setDays(v);
              setErrors((e) => ({ ...e, days: undefined }));
            }}
            data-testid="access-days"
          />
          <Checkbox label={t.isGift} checked={gift} onChange={(e) => setGift(e.currentTarget.checked)} />
          {gift && (
            <ReasonField
              value={reason}
              error={errors.reason}
              onChange={(v) => {
                setReason(v);
                setErrors((e) => ({ ...e, reason: undefined }));
              }}
            />
          )}
          {!gift && (
            <>
              <PaymentMethodSelect
                methods={options.data?.paymentMethods ?? []}
                value={methodId}
                error={errors.method}
                onChange={(v) => {
                  setMethodId(v);
                  setErrors((e) => ({ ...e, method: undefined }));
                }}
              />
              <PaymentFields check={pay} entry={entry} errors={errors} onEdit={(field) => setErrors((x) => ({ ...x, [field]: undefined }))} />
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t.cancel}</Button>
            <Button type="submit" loading={give.isPending}>{t.giveAccess}</Button>
          </Group>
        </Stack>
      </form>
      )}
    </Modal>
  );
}

/** Takes classes away from a customer's credits (soonest to expire first, on the server). */
export function RemoveClassesModal({ opened, onClose, customer, available }: ModalProps & { available: number }) {
  const saved = useSavedNotice();
  const [amount, setAmount] = useState<number | string>(1);
  const [problem, setProblem] = useState<string | null>(null);
  const [amountError, setAmountError] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const remove = trpc.actions.removeClasses.useMutation();
  useEffect(() => {
    if (!opened) return;
    setAmount(1);
    setReason('');
    setReasonError(null);
    setProblem(null);
    setAmountError(null);
  }, [opened]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const n = Number(amount);
    const invalid = !Number.isInteger(n) || n < 1 ? t.amountInvalid : available !== -1 && n > available ? t.amountTooMany : null;
    setAmountError(invalid);
    const noReason = isReasonGiven(reason) ? null : activityTexts.reasonRequired;
    setReasonError(noReason);
    if (invalid || noReason) return;
    try {
      await remove.mutateAsync({ customer_id: customer.customer_id, amount: n, reason: reason.trim() });
      saved(t.classesRemoved);
      onClose();
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={`${t.removeClasses}: ${fullName(customer)}`}>
      <form onSubmit={submit}>
        <Stack>
          {problem && <Alert color="red" role="alert">{problem}</Alert>}
          <Text size="sm" c="dimmed">
            {t.credits}: {available === -1 ? t.creditsUnlimited : available}
          </Text>
          <NumberInput label={t.amount} clampBehavior="none" allowDecimal={false} allowNegative={false} value={amount} onChange={setAmount} error={amountError} data-autofocus />
          <ReasonField
            value={reason}
            error={reasonError}
            onChange={(v) => {
              setReason(v);
              setReasonError(null);
            }}
          />
          <SimpleGrid cols={2}>
            <Button variant="default" onClick={onClose}>{t.cancel}</Button>
            <Button type="submit" color="orange" loading={remove.isPending}>{t.removeClasses}</Button>
          </SimpleGrid>
        </Stack>
      </form>
    </Modal>
  );
}

/** Why staff give, take or revoke (decision 037): required, kept in Actividad with their name. */
export function ReasonField({ value, error, onChange }: { value: string; error?: string | null | undefined; onChange: (value: string) => void }) {
  return (
    <Textarea
      label={activityTexts.reason}
      placeholder={activityTexts.reasonPlaceholder}
      // The asterisk only: the browser's own 'required' check would speak English before ours.
      withAsterisk
      autosize
      minRows={2}
      maxLength={300}
      value={value}
      error={error}
      onChange={(e) => onChange(e.currentTarget.value)}
      data-testid="action-reason"
    />
  );
}
