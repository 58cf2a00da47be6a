import { ActionIcon, Button, Checkbox, Divider, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { classPackageCreateInput, classPackageUpdateInput, texts } from '@estudio/core';
import { api } from '../api.ts';
import { numberOrNull, textOrNull, useSchemaForm } from '../form.ts';
import { DateTimeField, TimeListField } from '../date-fields.tsx';
import { FormError } from '../form-feedback.tsx';
import { ImageField } from '../image-fields.tsx';
import type { AdminPackage } from './PackagesScreen.tsx';

const t = texts.adminConsole;
const periods = [
  { value: 'day', label: 'Días' },
  { value: 'week', label: 'Semanas' },
  { value: 'month', label: 'Meses' },
  { value: 'year', label: 'Años' },
];

interface TypeRow {
  class_type_id: string | null;
  class_amount: number | string;
  expiration_days: number | string;
  allowed_times: string;
}

function initialValues(p: AdminPackage | null) {
  return {
    title: p?.title ?? '',
    short_description: p?.short_description ?? '',
    description: p?.description ?? '',
    price: p?.price ?? '',
    sale_price: p?.sale_price ?? '',
    class_amount: (p?.class_amount ?? 1) as number | string,
    expiration_days: (p?.expiration_days ?? 30) as number | string,
    limit_per_customer: (p?.limit_per_customer ?? '') as number | string,
    people_limit: (p?.people_limit ?? '') as number | string,
    is_subscription: p?.is_subscription ?? false,
    subscription_period: p?.subscription_period ?? null,
    subscription_interval: (p?.subscription_interval ?? '') as number | string,
    is_presencial: p?.is_presencial ?? true,
    is_online: p?.is_online ?? false,
    is_special_event: p?.is_special_event ?? false,
    event_date: (p?.event_date ?? null) as string | null,
    image: p?.image ?? '',
    receipt_file_id: (p?.receipt_file_id ?? null) as number | null,
    receipt_src: p?.receipt_file?.src ?? '',
    is_trial: p?.is_trial ?? false,
    available: p?.available ?? true,
    show_on_home: p?.show_on_home ?? false,
    order: (p?.order ?? 0) as number | string,
    types: (p?.class_package_types ?? []).map(
      (row): TypeRow => ({
        class_type_id: String(row.class_type_id),
        class_amount: row.class_amount,
        expiration_days: row.expiration_days ?? '',
        allowed_times: row.allowed_times ?? '',
      }),
    ),
  };
}

/** Create or edit a package: checked with the same schema as POST/PUT /api/class_packages, the server's refusals by field. */
export function PackageForm({ pkg, onClose, onSaved }: { pkg: AdminPackage | null; onClose: () => void; onSaved: () => void }) {
  const form = useSchemaForm(initialValues(pkg));
  const v = form.values;
  const classTypes = api.classTypes.list.useQuery();
  const typeOptions = (classTypes.data?.class_types ?? []).map((c) => ({ value: String(c.class_type_id), label: c.name }));
  const done = (message: string) => {
    notifications.show({ color: 'teal', message });
    onSaved();
  };
  const create = api.packages.create.useMutation({ onSuccess: () => done('Paquete creado.'), onError: form.serverError });
  const update = api.packages.update.useMutation({ onSuccess: () => done(t.saved), onError: form.serverError });

  const payload = () => ({
    title: v.title,
    short_description: textOrNull(v.short_description),
    description: textOrNull(v.description),
    price: v.price,
    sale_price: textOrNull(v.sale_price),
    class_amount: numberOrNull(v.class_amount) ?? undefined,
    expiration_days: numberOrNull(v.expiration_days),
    limit_per_customer: numberOrNull(v.limit_per_customer),
    people_limit: numberOrNull(v.people_limit),
    is_subscription: v.is_subscription,
    subscription_period: v.is_subscription ? v.subscription_period : null,
    subscription_interval: v.is_subscription ? numberOrNull(v.subscription_interval) : null,
    is_presencial: v.is_presencial,
    is_online: v.is_online,
    is_special_event: v.is_special_event,
    event_date: v.is_special_event ? v.event_date : null,
    image: textOrNull(v.image),
    receipt_file_id: v.receipt_file_id,
    is_trial: v.is_trial,
    available: v.available,
    show_on_home: v.show_on_home,
    order: numberOrNull(v.order) ?? 0,
    class_package_types: v.types.map((row) => ({
      class_type_id: numberOrNull(row.class_type_id),
      class_amount: numberOrNull(row.class_amount),
      expiration_days: numberOrNull(row.expiration_days),
      allowed_times: textOrNull(row.allowed_times),
    })),
  });

  const submit = () => {
    if (pkg) {
      const input = form.validate(classPackageUpdateInput, { class_package_id: pkg.class_package_id, ...payload() });
      // The cross-field rules (sale price, subscription) are checked by the create schema on the whole package.
      if (input && form.validate(classPackageCreateInput, payload())) update.mutate(input);
    } else {
      const input = form.validate(classPackageCreateInput, payload());
      if (input) create.mutate(input);
    }
  };

  const setType = (i: number, patch: Partial<TypeRow>) => form.set('types', v.types.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  const e = form.errors;

  return (
    <Modal opened onClose={onClose} title={pkg ? `${t.edit}: ${pkg.title}` : 'Nuevo paquete'} size="xl" centered>
      <Stack gap="sm" data-testid="package-form">
        <TextInput label="Nombre" required value={v.title} onChange={(ev) => form.set('title', ev.currentTarget.value)} error={e.title} />
        <TextInput label="Descripción corta" value={v.short_description} onChange={(ev) => form.set('short_description', ev.currentTarget.value)} error={e.short_description} />
        <Textarea label="Descripción" autosize minRows={2} value={v.description} onChange={(ev) => form.set('description', ev.currentTarget.value)} error={e.description} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <ImageField label="Imagen (tienda y pago)" value={v.image || null} onChange={(src) => form.set('image', src ?? '')} error={e.image} testId="package-image" wide={false} />
          <ImageField
            label="Imagen del recibo"
            value={v.receipt_file_id !== null && v.receipt_src ? v.receipt_src : null}
            onChange={(src, fileId) => {
              form.set('receipt_src', src ?? '');
              form.set('receipt_file_id', fileId);
            }}
            error={e.receipt_file_id}
            testId="package-receipt"
            wide={false}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <TextInput label="Precio (MXN)" required value={v.price} onChange={(ev) => form.set('price', ev.currentTarget.value)} error={e.price} />
          <TextInput label="Precio de oferta" value={v.sale_price} onChange={(ev) => form.set('sale_price', ev.currentTarget.value)} error={e.sale_price} />
          <NumberInput label="Clases (-1 ilimitadas)" value={v.class_amount} onChange={(x) => form.set('class_amount', x)} error={e.class_amount} allowDecimal={false} min={-1} />
          <NumberInput label="Vigencia (días)" value={v.expiration_days} onChange={(x) => form.set('expiration_days', x)} error={e.expiration_days} allowDecimal={false} min={1} />
          <NumberInput label="Límite por cliente" value={v.limit_per_customer} onChange={(x) => form.set('limit_per_customer', x)} error={e.limit_per_customer} allowDecimal={false} min={1} />
          <NumberInput label="Cupo de personas" value={v.people_limit} onChange={(x) => form.set('people_limit', x)} error={e.people_limit} allowDecimal={false} min={0} />
          <NumberInput label="Orden" value={v.order} onChange={(x) => form.set('order', x)} error={e.order} allowDecimal={false} min={0} />
        </SimpleGrid>
        <Group>
          <Checkbox label="Presencial" checked={v.is_presencial} onChange={(ev) => form.set('is_presencial', ev.currentTarget.checked)} />
          <Checkbox label="Online" checked={v.is_online} onChange={(ev) => form.set('is_online', ev.currentTarget.checked)} />
          <Checkbox label="Clase de prueba" checked={v.is_trial} onChange={(ev) => form.set('is_trial', ev.currentTarget.checked)} />
          <Checkbox label="Evento especial" checked={v.is_special_event} onChange={(ev) => form.set('is_special_event', ev.currentTarget.checked)} />
          <Checkbox label="Suscripción" checked={v.is_subscription} onChange={(ev) => form.set('is_subscription', ev.currentTarget.checked)} error={e.is_subscription} />
          <Checkbox label="Disponible" checked={v.available} onChange={(ev) => form.set('available', ev.currentTarget.checked)} />
          <Checkbox label="En el home" checked={v.show_on_home} onChange={(ev) => form.set('show_on_home', ev.currentTarget.checked)} />
        </Group>
        {v.is_subscription && (
          <SimpleGrid cols={2}>
            <NumberInput label="Cobrar cada" value={v.subscription_interval} onChange={(x) => form.set('subscription_interval', x)} error={e.subscription_interval} allowDecimal={false} min={1} />
            <Select label="Periodo" data={periods} value={v.subscription_period} onChange={(x) => form.set('subscription_period', x as typeof v.subscription_period)} error={e.subscription_period} />
          </SimpleGrid>
        )}
        {v.is_special_event && (
          <DateTimeField label="Fecha del evento" value={v.event_date} onChange={(x) => form.set('event_date', x)} error={e.event_date} testId="package-event-date" />
        )}
        <Divider label="Clases por tipo de clase" labelPosition="left" />
        {e.class_package_types && (
          <Text c="red" size="sm">
            {e.class_package_types}
          </Text>
        )}
        {v.types.map((row, i) => (
          <Group key={i} align="flex-end" wrap="wrap">
            <Select label="Tipo de clase" data={typeOptions} value={row.class_type_id} onChange={(x) => setType(i, { class_type_id: x })} w={220} />
            <NumberInput label="Clases" value={row.class_amount} onChange={(x) => setType(i, { class_amount: x })} allowDecimal={false} min={-1} w={100} />
            <NumberInput label="Vigencia (días)" value={row.expiration_days} onChange={(x) => setType(i, { expiration_days: x })} allowDecimal={false} min={1} w={130} />
            <TimeListField label="Horarios permitidos" value={row.allowed_times} onChange={(times) => setType(i, { allowed_times: times })} testId={`package-type-${i}-times`} emptyText={t.timeAnyHour} flex={1} />
            <ActionIcon variant="subtle" color="red" mb={4} aria-label={t.delete} onClick={() => form.set('types', v.types.filter((_, j) => j !== i))}>
              <IconTrash size={18} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => form.set('types', [...v.types, { class_type_id: null, class_amount: 1, expiration_days: '', allowed_times: '' }])}
          >
            Agregar tipo de clase
          </Button>
        </Group>
        <FormError message={form.formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button onClick={submit} loading={create.isPending || update.isPending} data-testid="package-save">
            {t.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
