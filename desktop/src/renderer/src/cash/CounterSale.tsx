import { ActionIcon, Alert, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { domainErrors, drawerAmount, formatMXN, fromCents, maxUnitsPerLine, outOfStockMessage, productLineCents, receiptLineTitle, receiptMethodText, texts, toCents, type CounterSaleQuote } from '@estudio/core';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../admin/api.ts';
import { errorText, money } from '../format.ts';
import { useSavedNotice } from '../saved.ts';
import { trpc, type DeskOutputs } from '../trpc.ts';
import { checkPayment, PaymentFields, PaymentMethodSelect, usePaymentEntry } from './PaymentFields.tsx';
import { SaleReceipt, type ReceiptData } from './Receipt.tsx';

const t = texts.counterSale;
const d = texts.desk;
type Person = DeskOutputs['customers']['card']['customer'];

interface CartLine {
  /** 'package:<id>' for a package (each one its own line), 'product:<id>' for a product (one line, its units). */
  key: string;
  kind: 'package' | 'product';
  id: number;
  title: string;
  price: string;
  quantity: number;
  /** Units the replica says are on the shelf; null: not counted. */
  stock: number | null;
}

/**
 * The counter's point of sale: packages and products in one cart, a discount
 * code for its packages (checked with the server before charging, as the total
 * depends on it), one way to pay with the change or the terminal's slip, and
 * the receipt to print. Recorded as one desk change (sellAtDesk), so it also
 * works offline (a code needs the connection).
 */
export function CounterSaleModal({ opened, onClose, customer }: { opened: boolean; onClose: () => void; customer: Person }) {
  const saved = useSavedNotice();
  const options = trpc.customers.accessOptions.useQuery(undefined, { enabled: opened });
  const me = trpc.session.get.useQuery().data?.user ?? null;
  const sell = trpc.actions.sellAtDesk.useMutation();
  const quoteCall = api.sales.quote.useMutation();
  const [lines, setLines] = useState<CartLine[]>([]);
  const [picked, setPicked] = useState<string | null>(null);
  const [codeText, setCodeText] = useState('');
  const [quote, setQuote] = useState<CounterSaleQuote | null>(null);
  const [codeProblem, setCodeProblem] = useState<string | null>(null);
  const [methodId, setMethodId] = useState<string | null>(null);
  const [split, setSplit] = useState(false);
  const [cashPartText, setCashPartText] = useState('');
  const entry = usePaymentEntry();
  const [receipt, setReceipt] = useState<ReceiptData | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ cashPart?: string; cart?: string; method?: string; tendered?: string; last4?: string; authorization?: string }>({});
  useEffect(() => {
    if (!opened) return;
    setLines([]);
    setPicked(null);
    setCodeText('');
    setQuote(null);
    setCodeProblem(null);
    setMethodId(null);
    setSplit(false);
    setCashPartText('');
    entry.reset();
    setReceipt(null);
    setProblem(null);
    setErrors({});
    // entry.reset is a fresh function each render; the form starts over only when the dialog opens.
  }, [opened]);

  const packageIds = lines.filter((l) => l.kind === 'package').map((l) => l.id);
  const packagesKey = packageIds.join(',');
  // A code applies to the packages in the cart: when they change, the server says again what it takes off.
  useEffect(() => {
    if (!quote) return;
    const code = quote.discount_code;
    if (packagesKey === quote.packages.map((p) => p.class_package_id).join(',')) return;
    quoteCall
      .mutateAsync({ customer_id: customer.customer_id, packages: packageIds.map((id) => ({ class_package_id: id, package_days: null })), discount_code: code })
      .then(setQuote)
      .catch((e: unknown) => {
        setQuote(null);
        setCodeProblem(errorText(e));
      });
    // Re-quoted only when the cart's packages change.
  }, [packagesKey]);

  const priceOf = (line: CartLine, index: number) => {
    if (line.kind === 'product') return productLineCents(line.price, line.quantity);
    // The n-th package line of the cart is the quote's n-th package.
    const nth = lines.slice(0, index).filter((l) => l.kind === 'package').length;
    const quoted = quote?.packages[nth];
    return quoted && quoted.class_package_id === line.id ? toCents(quoted.price) : toCents(line.price);
  };
  const totalCents = lines.reduce((n, line, i) => n + priceOf(line, i), 0);
  const savedCents = lines.reduce((n, line, i) => n + (line.kind === 'package' ? toCents(line.price) - priceOf(line, i) : 0), 0);
  const method = options.data?.paymentMethods.find((m) => String(m.payment_method_id) === methodId) ?? null;
  // Split: the cash part (with what the customer hands over and the change), the rest on the card with its slip.
  const splitting = split && method?.provider === 'card';
  const cashPart = splitting && cashPartText.trim() !== '' ? drawerAmount('la parte en efectivo').safeParse(cashPartText) : null;
  const cashPartCents = cashPart?.success ? toCents(cashPart.data) : null;
  const cashPartProblem = !splitting
    ? null
    : cashPart === null
      ? null
      : !cashPart.success
        ? (cashPart.error.issues[0]?.message ?? null)
        : cashPartCents! <= 0 || cashPartCents! >= totalCents
          ? domainErrors['sale/split-amount'].message
          : null;
  const pay = checkPayment(method?.provider, lines.length ? (splitting ? totalCents - (cashPartCents ?? 0) : totalCents) : null, entry);
  const cashPay = checkPayment('cash', cashPartCents, entry);

  const add = (value: string | null) => {
    setPicked(null);
    if (!value || !options.data) return;
    const [kind, rawId] = value.split(':');
    const id = Number(rawId);
    if (kind === 'package') {
      const p = options.data.packages.find((x) => x.class_package_id === id);
      if (p) setLines((ls) => [...ls, { key: `package:${id}:${ls.length}:${Date.now()}`, kind: 'package', id, title: p.title, price: p.price, quantity: 1, stock: null }]);
    } else {
      const p = options.data.products.find((x) => x.product_id === id);
      if (!p) return;
      setLines((ls) =>
        ls.some((l) => l.key === `product:${id}`)
          ? ls.map((l) => (l.key === `product:${id}` ? { ...l, quantity: Math.min(l.quantity + 1, maxUnitsPerLine) } : l))
          : [...ls, { key: `product:${id}`, kind: 'product', id, title: p.name, price: p.price, quantity: 1, stock: p.stock }],
      );
    }
    setErrors((e) => ({ ...e, cart: undefined }));
  };

  const applyCode = async () => {
    setCodeProblem(null);
    if (codeText.trim() === '') return setCodeProblem(t.code);
    if (packageIds.length === 0) return setCodeProblem(t.codeForPackages);
    try {
      setQuote(await quoteCall.mutateAsync({ customer_id: customer.customer_id, packages: packageIds.map((id) => ({ class_package_id: id, package_days: null })), discount_code: codeText }));
    } catch (e) {
      setQuote(null);
      setCodeProblem(errorText(e));
    }
  };

  const overStock = lines.find((l) => l.kind === 'product' && l.stock !== null && l.quantity > l.stock);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      cashPart: splitting ? (cashPartProblem ?? (cashPart === null ? texts.counterSale.cashPart : undefined)) : undefined,
      cart: lines.length === 0 ? t.empty : overStock ? outOfStockMessage(overStock.title, overStock.stock ?? 0) : undefined,
      method: methodId ? undefined : d.pickPaymentMethod,
      tendered: (splitting ? cashPay.tenderedProblem : pay.tenderedProblem) ?? undefined,
      ...pay.slipProblems,
    };
    setErrors(found);
    if (found.cashPart || found.cart || found.method || found.tendered || found.last4 || found.authorization) return;
    try {
      await sell.mutateAsync({
        customer_id: customer.customer_id,
        packages: lines.filter((l) => l.kind === 'package').map((l) => ({ class_package_id: l.id, package_days: null })),
        products: lines.filter((l) => l.kind === 'product').map((l) => ({ product_id: l.id, quantity: l.quantity })),
        discount_code: quote?.discount_code ?? null,
        payment_method_id: Number(methodId),
        // Money taken is always a charge (decision 116).
        bill: true,
        terminal: pay.slip,
        cash_part: splitting && cashPartCents !== null ? fromCents(cashPartCents) : null,
      });
      saved(t.sold);
      setReceipt({
        studio: options.data?.studio ?? { name: '', location: '', email: '', whatsapp: '' },
        at: new Date().toISOString(),
        customer: `${customer.name} ${customer.last_name}`,
        seller: me ? `${me.name} ${me.last_name}` : '',
        lines: lines.map((l, i) => ({
          title: receiptLineTitle(l, l.kind === 'package' && quote && priceOf(l, i) < toCents(l.price) ? quote.discount_code : null),
          amount: fromCents(priceOf(l, i)),
        })),
        total: fromCents(totalCents),
        method: receiptMethodText(method?.name ?? '', pay.slip, splitting && cashPartCents !== null ? { cashCents: cashPartCents, totalCents } : null),
        tendered: splitting ? cashPay.tendered : pay.tendered,
        change: splitting ? cashPay.change : pay.change,
      });
    } catch (e) {
      setProblem(errorText(e));
    }
  };

  const catalogue = options.data
    ? [
        { group: t.packages, items: options.data.packages.map((p) => ({ value: `package:${p.class_package_id}`, label: `${p.title} · ${money(p.price)}` })) },
        {
          group: t.products,
          items: options.data.products.map((p) => ({
            value: `product:${p.product_id}`,
            label: `${p.name} · ${money(p.price)}${p.stock === null ? '' : p.stock === 0 ? ` · ${t.soldOut}` : ` · ${t.stockLeft(p.stock)}`}`,
            disabled: p.stock === 0,
          })),
        },
      ].filter((g) => g.items.length > 0)
    : [];

  return (
    <Modal opened={opened} onClose={onClose} title={t.title(`${customer.name} ${customer.last_name}`)} size="lg">
      {receipt ? (
        <SaleReceipt receipt={receipt} onDone={onClose} />
      ) : (
        <form onSubmit={submit}>
          <Stack>
            {problem && (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            )}
            <Select label={t.add} description={t.addHint} searchable value={picked} onChange={add} data={catalogue} error={errors.cart} data-testid="sale-add" />
            {lines.length > 0 && (
              <Table data-testid="sale-cart" verticalSpacing={4}>
                <Table.Tbody>
                  {lines.map((l, i) => (
                    <Table.Tr key={l.key}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {l.title}
                        </Text>
                        {l.kind === 'product' && l.stock !== null && (
                          <Text size="xs" c={l.quantity > l.stock ? 'red' : 'dimmed'}>
                            {t.stockLeft(l.stock)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td w={72}>
                        {l.kind === 'product' && (
                          <NumberInput
                            aria-label={`${t.quantity}: ${l.title}`}
                            miw={56}
                            hideControls
                            size="xs"
                            min={1}
                            max={maxUnitsPerLine}
                            allowDecimal={false}
                            allowNegative={false}
                            value={l.quantity}
                            onChange={(v) => {
                              const n = Math.max(1, Math.min(maxUnitsPerLine, Number(v) || 1));
                              setLines((ls) => ls.map((x) => (x.key === l.key ? { ...x, quantity: n } : x)));
                            }}
                          />
                        )}
                      </Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {priceOf(l, i) < toCents(l.price) && l.kind === 'package' && (
                          <Text span size="xs" c="dimmed" td="line-through" mr={6}>
                            {money(l.price)}
                          </Text>
                        )}
                        <Text span size="sm">
                          {formatMXN(priceOf(l, i))}
                        </Text>
                      </Table.Td>
                      <Table.Td w={40}>
                        <ActionIcon variant="subtle" color="red" aria-label={t.remove(l.title)} onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                label={t.code}
                value={codeText}
                error={codeProblem}
                disabled={quote !== null}
                onChange={(e) => {
                  setCodeText(e.currentTarget.value);
                  setCodeProblem(null);
                }}
                data-testid="sale-code"
              />
              {quote ? (
                <Button
                  variant="default"
                  onClick={() => {
                    setQuote(null);
                    setCodeText('');
                  }}
                >
                  {t.removeCode}
                </Button>
              ) : (
                <Button variant="light" onClick={() => void applyCode()} loading={quoteCall.isPending}>
                  {t.apply}
                </Button>
              )}
            </Group>
            {quote && savedCents > 0 && (
              <Text size="sm" c="teal" data-testid="sale-code-applied">
                {t.codeApplied(quote.discount_code, formatMXN(savedCents))}
              </Text>
            )}
            <Group justify="space-between">
              <Text fw={700} size="lg">
                {t.total}
              </Text>
              <Text fw={700} size="lg" data-testid="sale-total">
                {formatMXN(totalCents)}
              </Text>
            </Group>
            <PaymentMethodSelect
              methods={options.data?.paymentMethods ?? []}
              value={methodId}
              error={errors.method}
              onChange={(v) => {
                setMethodId(v);
                setErrors((e) => ({ ...e, method: undefined }));
              }}
            />
            {method?.provider === 'card' && (
              <Checkbox label={t.split} checked={split} onChange={(e) => setSplit(e.currentTarget.checked)} data-testid="sale-split" />
            )}
            {splitting && (
              <Group align="flex-start" grow>
                <TextInput
                  label={t.cashPart}
                  leftSection="$"
                  inputMode="decimal"
                  value={cashPartText}
                  error={errors.cashPart ?? cashPartProblem}
                  onChange={(e) => {
                    setCashPartText(e.currentTarget.value);
                    setErrors((x) => ({ ...x, cashPart: undefined }));
                  }}
                />
                <Text fw={600} mt={30} data-testid="sale-card-rest">
                  {t.cardRest(formatMXN(totalCents - (cashPartCents ?? 0)))}
                </Text>
              </Group>
            )}
            {splitting && <PaymentFields check={{ ...cashPay, onTerminal: false }} entry={entry} errors={errors} onEdit={(field) => setErrors((x) => ({ ...x, [field]: undefined }))} />}
            <PaymentFields check={pay} entry={entry} errors={errors} onEdit={(field) => setErrors((x) => ({ ...x, [field]: undefined }))} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {d.cancel}
              </Button>
              <Button type="submit" loading={sell.isPending} data-testid="sale-submit">
                {t.charge(formatMXN(totalCents))}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
