import { Alert, Badge, Button, Checkbox, Group, Modal, NumberInput, Stack, Table, Text, Textarea } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { formatMXN, productReturnCents, texts, toCents, type customerProductSalesOutput, type z } from '@estudio/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { api } from '../admin/api.ts';
import { dateTimeOf, errorText, fieldErrorText, money } from '../format.ts';

const t = texts.productReturns;

type Sale = z.infer<typeof customerProductSalesOutput>['sales'][number];

/**
 * What a customer bought at the counter besides classes, read from the server, with "Devolver" on each line that
 * still has units to return (decision 115). Online only, as refunds are: the money and the shelf are the server's.
 */
export function ProductPurchases({ customerId }: { customerId: number }) {
  const sales = api.sales.products.useQuery({ customer_id: customerId }, { retry: false });
  const [returning, setReturning] = useState<Sale | null>(null);
  if (sales.isPending) return <Text size="sm" c="dimmed">…</Text>;
  if (sales.error) return <Text size="sm" c="dimmed">{t.offline}</Text>;
  const rows = sales.data.sales;
  return (
    <Stack gap="xs" data-testid="product-purchases">
      <Text size="xs" c="dimmed">{t.intro}</Text>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">{t.empty}</Text>
      ) : (
        <Table withTableBorder verticalSpacing={6}>
          <Table.Tbody>
            {rows.map((s) => (
              <Table.Tr key={s.product_sale_id} data-testid="product-purchase">
                <Table.Td>
                  <Text size="sm" fw={600}>{t.line(s.title, s.quantity)}</Text>
                  <Text size="xs" c="dimmed">{dateTimeOf(s.paid_at)} · {s.method}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm">{money(s.total)}</Text>
                  {s.returned > 0 && <Badge size="xs" variant="light" color="gray">{t.returned(s.returned)}</Badge>}
                </Table.Td>
                <Table.Td w={120} ta="right">
                  {s.returnable > 0 && (
                    <Button size="compact-sm" variant="light" color="orange" leftSection={<IconArrowBackUp size={14} />} onClick={() => setReturning(s)}>
                      {t.giveBack}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {returning && <ReturnModal sale={returning} onClose={() => setReturning(null)} onDone={() => void sales.refetch()} />}
    </Stack>
  );
}

function ReturnModal({ sale, onClose, onDone }: { sale: Sale; onClose: () => void; onDone: () => void }) {
  const giveBack = api.sales.returnProduct.useMutation();
  const [quantity, setQuantity] = useState(1);
  const [restock, setRestock] = useState(true);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ quantity?: string; reason?: string }>({});
  const [problem, setProblem] = useState<string | null>(null);
  // What the customer gets back, by the server's own rule (the last units take what is left of the total).
  const estimate = productReturnCents(
    { quantity: sale.quantity, unit_price: sale.unit_price, total: sale.total, paidInCash: false, cash_part: null },
    { quantity: sale.returned, amountCents: toCents(sale.returned_amount), cashCents: 0 },
    quantity,
  ).amountCents;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { reason: reason.trim() ? undefined : t.reasonRequired };
    setErrors(found);
    if (found.reason) return;
    try {
      const done = await giveBack.mutateAsync({ product_sale_id: sale.product_sale_id, quantity, restock, reason: reason.trim() });
      notifications.show({ color: 'teal', message: t.done(formatMXN(toCents(done.amount)), formatMXN(toCents(done.cash_part))) });
      onDone();
      onClose();
    } catch (e) {
      const field = (e as { data?: { field?: unknown } }).data?.field;
      if (field === 'quantity' || field === 'reason') setErrors({ [field]: fieldErrorText(e, field) });
      else setProblem(errorText(e));
    }
  };
  return (
    <Modal opened onClose={onClose} title={t.title(t.line(sale.title, sale.quantity))} data-testid="product-return-modal">
      <form onSubmit={submit} noValidate>
        <Stack>
          {problem && <Alert color="red" role="alert">{problem}</Alert>}
          <NumberInput
            label={t.quantity}
            description={t.quantityHint(sale.returnable)}
            min={1}
            max={sale.returnable}
            allowDecimal={false}
            clampBehavior="strict"
            value={quantity}
            error={errors.quantity}
            onChange={(v) => setQuantity(typeof v === 'number' ? v : 1)}
            maw={200}
          />
          <Checkbox label={t.restock} checked={restock} onChange={(e) => setRestock(e.currentTarget.checked)} />
          <Textarea label={t.reason} description={t.reasonHint} value={reason} error={errors.reason} onChange={(e) => {
              const value = e.currentTarget.value;
              setReason(value);
              setErrors((x) => ({ ...x, reason: undefined }));
            }}
            maxLength={300} autosize minRows={2} />
          <Text size="sm" data-testid="product-return-estimate">{t.estimate(formatMXN(estimate))}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{texts.desk.cancel}</Button>
            <Button type="submit" color="orange" loading={giveBack.isPending}>{t.submit}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
