import { Badge, Button, Checkbox, Group, Modal, MultiSelect, NumberInput, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { discountCreateInput, discountUpdateInput, texts } from '@estudio/core';
import { useState } from 'react';
import { dateOf, money } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { numberOrNull, textOrNull, useSchemaForm } from '../form.ts';
import { DateTimeField } from '../date-fields.tsx';
import { ConfirmModal, FormError } from '../form-feedback.tsx';
import { ListTable, Loaded, Pager, RowActions, useSearch, type ListColumn } from '../list-widgets.tsx';

const t = texts.adminConsole;
const limit = 25;
type Discount = ApiOutputs['discounts']['adminAll']['discounts'][number];

const amountOf = (d: Discount) => (d.is_percent ? `${Number(d.amount)}%` : money(d.amount));

/** The codes' table: what each gives, how often it was used, when it is good and for which packages. */
const discountColumns: ListColumn<Discount>[] = [
  {
    label: 'Código',
    render: (d) => (
      <>
        <Text fw={600} ff="monospace">
          {d.code}
        </Text>
        {d.description && (
          <Text size="xs" c="dimmed">
            {d.description}
          </Text>
        )}
        {!d.available && (
          <Badge color="gray" size="xs">
            Desactivado
          </Badge>
        )}
      </>
    ),
  },
  {
    label: 'Descuento',
    render: (d) => (
      <>
        {amountOf(d)}
        {d.first_invoice_only && (
          <Text size="xs" c="dimmed">
            Solo primera compra
          </Text>
        )}
      </>
    ),
  },
  { label: 'Usos', render: (d) => `${d.uses}${d.max_uses !== null ? ` / ${d.max_uses}` : ''}` },
  { label: 'Vigencia', render: (d) => `${d.starts_at ? dateOf(d.starts_at) : '—'} → ${d.expires_at ? dateOf(d.expires_at) : '—'}` },
  { label: 'Paquetes', render: (d) => (d.class_package_ids.length ? d.class_package_ids.length : 'Todos') },
];

export function DiscountsScreen() {
  const search = useSearch();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Discount | 'new' | null>(null);
  const [removing, setRemoving] = useState<Discount | null>(null);
  const utils = api.useUtils();
  const list = api.discounts.adminAll.useQuery({ query: search.debounced || undefined, page, limit });
  const remove = api.discounts.remove.useMutation({
    onSuccess: (r) => {
      notifications.show({ color: 'teal', message: r.soft ? 'El código ya se usó: quedó desactivado y marcado como eliminado.' : 'Código eliminado.' });
      setRemoving(null);
      void utils.discounts.invalidate();
    },
  });

  return (
    <>
      <Group justify="space-between">
        {search.input}
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="discount-new">
          {t.add}
        </Button>
      </Group>
      <Loaded query={list}>
        {() => (
          <>
            <ListTable
              testId="discounts-table"
              rows={list.data?.discounts ?? []}
              rowKey={(d) => d.discount_id}
              columns={discountColumns}
              rowProps={() => ({ 'data-testid': 'discount-row' })}
              actions={(d) => <RowActions name={d.code} onEdit={() => setEditing(d)} onDelete={() => setRemoving(d)} />}
            />
            <Pager page={page} limit={limit} total={list.data?.total ?? 0} onChange={setPage} />
          </>
        )}
      </Loaded>
      {editing && (
        <DiscountForm
          discount={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void utils.discounts.invalidate();
          }}
        />
      )}
      <ConfirmModal
        opened={removing !== null}
        title={`${t.delete} ${removing?.code ?? ''}`}
        confirmLabel={t.delete}
        onConfirm={() => removing && remove.mutate({ id: removing.discount_id })}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
        loading={remove.isPending}
        error={remove.error}
      >
        <Text size="sm">
          {removing?.uses ? 'Ya se usó: se desactivará y se marcará como eliminado para conservar el historial de compras.' : 'Se eliminará el código.'}
        </Text>
      </ConfirmModal>
    </>
  );
}

function DiscountForm({ discount, onClose, onSaved }: { discount: Discount | null; onClose: () => void; onSaved: () => void }) {
  const form = useSchemaForm({
    code: discount?.code ?? '',
    description: discount?.description ?? '',
    amount: discount ? String(Number(discount.amount)) : '',
    is_percent: discount?.is_percent ?? true,
    first_invoice_only: discount?.first_invoice_only ?? false,
    max_uses: (discount?.max_uses ?? '') as number | string,
    max_uses_per_customer: (discount?.max_uses_per_customer ?? '') as number | string,
    starts_at: discount?.starts_at ?? null,
    expires_at: discount?.expires_at ?? null,
    available: discount?.available ?? true,
    class_package_ids: (discount?.class_package_ids ?? []).map(String),
  });
  const v = form.values;
  const e = form.errors;
  const packages = api.packages.adminAll.useQuery({ page: 1, limit: 100 });
  const packageOptions = (packages.data?.class_packages ?? []).map((p) => ({ value: String(p.class_package_id), label: p.title }));
  const done = (message: string) => {
    notifications.show({ color: 'teal', message });
    onSaved();
  };
  const create = api.discounts.create.useMutation({ onSuccess: () => done('Código creado.'), onError: form.serverError });
  const update = api.discounts.update.useMutation({ onSuccess: () => done(t.saved), onError: form.serverError });

  const payload = () => ({
    code: v.code,
    description: textOrNull(v.description),
    amount: v.amount,
    is_percent: v.is_percent,
    first_invoice_only: v.first_invoice_only,
    max_uses: numberOrNull(v.max_uses),
    max_uses_per_customer: numberOrNull(v.max_uses_per_customer),
    starts_at: v.starts_at,
    expires_at: v.expires_at,
    available: v.available,
    class_package_ids: v.class_package_ids.map(Number),
  });
  const submit = () => {
    if (discount) {
      const whole = form.validate(discountCreateInput, payload());
      const input = whole && form.validate(discountUpdateInput, { discount_id: discount.discount_id, ...payload() });
      if (input) update.mutate(input);
    } else {
      const input = form.validate(discountCreateInput, payload());
      if (input) create.mutate(input);
    }
  };

  return (
    <Modal opened onClose={onClose} title={discount ? `${t.edit}: ${discount.code}` : 'Nuevo código de descuento'} size="lg" centered>
      <Stack gap="sm" data-testid="discount-form">
        <SimpleGrid cols={2}>
          <TextInput label="Código" required value={v.code} onChange={(ev) => form.set('code', ev.currentTarget.value)} error={e.code} />
          <TextInput
            label={v.is_percent ? 'Descuento (%)' : 'Descuento (MXN)'}
            required
            value={v.amount}
            onChange={(ev) => form.set('amount', ev.currentTarget.value)}
            error={e.amount}
          />
        </SimpleGrid>
        <Textarea label="Descripción" autosize minRows={1} value={v.description} onChange={(ev) => form.set('description', ev.currentTarget.value)} error={e.description} />
        <Group>
          <Checkbox label="Es porcentaje" checked={v.is_percent} onChange={(ev) => form.set('is_percent', ev.currentTarget.checked)} />
          <Checkbox label="Solo primera compra" checked={v.first_invoice_only} onChange={(ev) => form.set('first_invoice_only', ev.currentTarget.checked)} />
          <Checkbox label="Activo" checked={v.available} onChange={(ev) => form.set('available', ev.currentTarget.checked)} />
        </Group>
        <SimpleGrid cols={2}>
          <NumberInput label="Usos máximos" value={v.max_uses} onChange={(x) => form.set('max_uses', x)} error={e.max_uses} allowDecimal={false} min={0} />
          <NumberInput label="Usos por cliente" value={v.max_uses_per_customer} onChange={(x) => form.set('max_uses_per_customer', x)} error={e.max_uses_per_customer} allowDecimal={false} min={0} />
          <DateTimeField label="Desde" value={v.starts_at} onChange={(x) => form.set('starts_at', x)} error={e.starts_at} testId="discount-starts" />
          <DateTimeField label="Hasta" value={v.expires_at} onChange={(x) => form.set('expires_at', x)} error={e.expires_at} testId="discount-expires" />
        </SimpleGrid>
        <MultiSelect
          label="Paquetes (vacío: todos)"
          data={packageOptions}
          value={v.class_package_ids}
          onChange={(x) => form.set('class_package_ids', x)}
          error={e.class_package_ids}
          searchable
        />
        <FormError message={form.formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button onClick={submit} loading={create.isPending || update.isPending} data-testid="discount-save">
            {t.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
