import { Badge, Button, Group, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { useState } from 'react';
import { errorText, money } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { ConfirmModal } from '../form-feedback.tsx';
import { ListTable, Loaded, Pager, RowActions, useSearch, type ListColumn } from '../list-widgets.tsx';
import { BankTransferSettings } from './BankTransferSettings.tsx';
import { PackageForm } from './PackageForm.tsx';

const t = texts.adminConsole;
const limit = 25;
export type AdminPackage = ApiOutputs['packages']['adminAll']['class_packages'][number];

const kindOf = (p: AdminPackage) =>
  p.is_special_event ? 'Evento' : p.is_subscription ? 'Suscripción' : p.is_online && !p.is_presencial ? 'Online' : p.is_presencial ? 'Presencial' : 'Otro';
const classesOf = (p: AdminPackage) => (p.class_amount === -1 ? 'Ilimitadas' : String(p.class_amount));

/** What a package is, what it gives and costs, for how long, and how often it sold. */
const packageColumns: ListColumn<AdminPackage>[] = [
  {
    label: 'Paquete',
    render: (p) => (
      <>
        <Text fw={600}>{p.title}</Text>
        <Group gap={4}>
          {!p.available && (
            <Badge color="gray" size="xs">
              Oculto
            </Badge>
          )}
          {p.deletedAt && (
            <Badge color="red" size="xs">
              Eliminado
            </Badge>
          )}
          {p.stripe_price_id && (
            <Badge color="violet" size="xs" variant="light">
              Stripe
            </Badge>
          )}
        </Group>
      </>
    ),
  },
  { label: 'Tipo', render: kindOf },
  { label: 'Clases', render: classesOf },
  {
    label: 'Precio',
    render: (p) =>
      p.sale_price ? (
        <>
          <Text span td="line-through" c="dimmed" size="sm">
            {money(p.price)}
          </Text>{' '}
          {money(p.sale_price)}
        </>
      ) : (
        money(p.price)
      ),
  },
  { label: 'Vigencia', render: (p) => (p.expiration_days ? `${p.expiration_days} días` : '—') },
  { label: 'Compras', render: (p) => p.purchases },
];

export function PackagesScreen() {
  const search = useSearch();
  const [page, setPage] = useState(1);
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [editing, setEditing] = useState<AdminPackage | 'new' | null>(null);
  const [removing, setRemoving] = useState<AdminPackage | null>(null);
  const utils = api.useUtils();
  const list = api.packages.adminAll.useQuery({ query: search.debounced || undefined, page, limit, include_deleted: includeDeleted });
  const refresh = () => utils.packages.invalidate();

  const onHome = (ok: { message: string }) => {
    notifications.show({ color: 'teal', message: ok.message });
    void refresh();
  };
  const fail = (error: unknown) => notifications.show({ color: 'red', message: errorText(error) });
  const addToHome = api.packages.addToHome.useMutation({ onSuccess: onHome, onError: fail });
  const removeFromHome = api.packages.removeFromHome.useMutation({ onSuccess: onHome, onError: fail });
  const remove = api.packages.remove.useMutation({
    onSuccess: (r) => {
      notifications.show({ color: 'teal', message: r.soft ? 'El paquete tiene compras: quedó oculto y marcado como eliminado.' : 'Paquete eliminado.' });
      setRemoving(null);
      void refresh();
    },
  });

  return (
    <>
      <Group justify="space-between">
        <Group>
          {search.input}
          <Switch
            label="Mostrar eliminados"
            checked={includeDeleted}
            onChange={(e) => {
              setIncludeDeleted(e.currentTarget.checked);
              setPage(1);
            }}
          />
        </Group>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="package-new">
          {t.add}
        </Button>
      </Group>
      <Loaded query={list}>
        {() => (
          <>
            <ListTable
              testId="packages-table"
              rows={list.data?.class_packages ?? []}
              rowKey={(p) => p.class_package_id}
              rowProps={(p) => ({ 'data-package-id': p.class_package_id, 'data-testid': 'package-row' })}
              columns={[
                ...packageColumns,
                {
                  label: 'En el home',
                  render: (p) => (
                    <Switch
                      aria-label={`En el home: ${p.title}`}
                      data-testid="package-home"
                      checked={p.show_on_home}
                      disabled={Boolean(p.deletedAt) || addToHome.isPending || removeFromHome.isPending}
                      onChange={(e) => (e.currentTarget.checked ? addToHome : removeFromHome).mutate({ id: p.class_package_id })}
                    />
                  ),
                },
              ]}
              actions={(p) => <RowActions name={p.title} onEdit={() => setEditing(p)} onDelete={p.deletedAt ? undefined : () => setRemoving(p)} />}
            />
            <Pager page={page} limit={limit} total={list.data?.total ?? 0} onChange={setPage} />
          </>
        )}
      </Loaded>
      {editing && (
        <PackageForm
          pkg={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
        />
      )}
      <ConfirmModal
        opened={removing !== null}
        title={`${t.delete} “${removing?.title ?? ''}”`}
        confirmLabel={t.delete}
        onConfirm={() => removing && remove.mutate({ id: removing.class_package_id })}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
        loading={remove.isPending}
        error={remove.error}
      >
        <Text size="sm">
          {removing?.purchases
            ? `Tiene ${removing.purchases} compras: se ocultará y se marcará como eliminado para conservar su historial.`
            : 'Se eliminará el paquete y sus clases por tipo de clase.'}
        </Text>
      </ConfirmModal>
      <BankTransferSettings />
    </>
  );
}
