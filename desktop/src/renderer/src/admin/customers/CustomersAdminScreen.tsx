import { Alert, Badge, Button, Card, Group, Modal, PasswordInput, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconKey, IconMailForward, IconUserPlus } from '@tabler/icons-react';
import { activityTexts, customerSaveInput, customerSearchCountCap, roleNames, texts } from '@estudio/core';
import { useState } from 'react';
import { dateOf, errorText, money, purchaseStatusOf } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { textOrNull, useSchemaForm } from '../form.ts';
import { NewCustomerModal } from '../../customers/ReservationActions.tsx';
import { DateField } from '../date-fields.tsx';
import { FormError } from '../form-feedback.tsx';
import { ListTable, Loaded, Pager, useSearch, type ListColumn } from '../list-widgets.tsx';
import { RefundModal } from './RefundModal.tsx';
import { CustomerActivity } from '../activity/CustomerActivity.tsx';

const t = texts.adminConsole;
const m = texts.adminMoney;
/** A purchase that took money: it can be refunded (the server checks the rest). */
const paid = (p: { status: string; total_payment: string }) => p.status !== 'pending' && p.status !== 'failed' && Number(p.total_payment) > 0;
const limit = 25;
const roleText = roleNames;

type CustomerRow = ApiOutputs['customer']['adminAll']['customers'][number];

/** Who each customer is and how to reach them, their role and when they joined; a row opens the customer. */
const customerColumns: ListColumn<CustomerRow>[] = [
  {
    label: 'Nombre',
    render: (c) => (
      <>
        {c.name} {c.last_name} {c.has_unlimited && <Badge size="xs">Ilimitado</Badge>}
      </>
    ),
  },
  { label: 'Correo', render: (c) => c.email },
  { label: 'Teléfono', render: (c) => c.phone ?? '—' },
  { label: 'Rol', render: (c) => roleText[c.role] },
  { label: 'Alta', render: (c) => dateOf(c.createdAt) },
];

export function CustomersAdminScreen() {
  const search = useSearch();
  // A new search starts at its first page.
  const [paged, setPaged] = useState({ query: '', page: 1 });
  const page = paged.query === search.debounced ? paged.page : 1;
  const setPage = (next: number) => setPaged({ query: search.debounced, page: next });
  const [openId, setOpenId] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const utils = api.useUtils();
  const list = api.customer.adminAll.useQuery({ query: search.debounced || undefined, page, limit });
  if (openId !== null) return <CustomerDetail id={openId} onBack={() => setOpenId(null)} />;
  return (
    <>
      <Group justify="space-between">
        {search.input}
        <Button leftSection={<IconUserPlus size={16} />} onClick={() => setCreating(true)} data-testid="admin-customer-new">
          {m.newCustomer}
        </Button>
      </Group>
      {/* The desk's walk-in registration (POST /api/customer, with the studio's required documents): one form for both. */}
      <NewCustomerModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          void utils.customer.invalidate();
          setOpenId(id);
        }}
      />
      <Loaded query={list}>
        {() => (
          <>
            {list.data?.total_capped && (
              <Alert color="blue" variant="light" data-testid="admin-customers-too-wide">
                {t.searchTooWide(search.debounced, customerSearchCountCap)}
              </Alert>
            )}
            <ListTable
              testId="admin-customers-table"
              rows={list.data?.customers ?? []}
              rowKey={(c) => c.customer_id}
              columns={customerColumns}
              rowProps={(c) => ({ style: { cursor: 'pointer' }, onClick: () => setOpenId(c.customer_id), 'data-testid': 'admin-customer-row' })}
            />
            <Pager page={page} limit={limit} total={list.data?.total ?? 0} capped={list.data?.total_capped} onChange={setPage} />
          </>
        )}
      </Loaded>
    </>
  );
}

type AdminCustomer = ApiOutputs['customer']['adminById'];

function CustomerDetail({ id, onBack }: { id: number; onBack: () => void }) {
  const one = api.customer.adminById.useQuery({ id });
  const [refunding, setRefunding] = useState<{ purchase_id: number; title: string } | null>(null);
  const [settingPassword, setSettingPassword] = useState(false);
  const recover = api.customer.recover.useMutation({
    // The answer says whether it went or waits (decision 079): waiting is not success.
    onSuccess: (r) => notifications.show({ color: r.message === texts.adminCommerce.recoverSent ? 'teal' : 'yellow', message: r.message, autoClose: 12_000 }),
    onError: (e) => notifications.show({ color: 'red', message: errorText(e) }),
  });
  return (
    <Stack gap="md">
      <Group>
        <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={onBack}>
          Volver a la lista
        </Button>
      </Group>
      <Loaded query={one}>
        {() => {
          const data = one.data;
          if (!data) return null;
          const c = data.customer;
          return (
            <Stack gap="md" data-testid="admin-customer-detail">
              <Group justify="space-between">
                <div>
                  <Title order={3}>
                    {c.name} {c.last_name}
                  </Title>
                  <Text c="dimmed">
                    {c.email} · {c.phone ?? 'sin teléfono'} · {roleText[c.role]}
                  </Text>
                </div>
                <Group gap="xs">
                  <Button variant="light" leftSection={<IconMailForward size={16} />} loading={recover.isPending} onClick={() => recover.mutate({ email: c.email })}>
                    Enviar correo para reestablecer contraseña
                  </Button>
                  {(c.role === 'customer' || c.role === 'coach') && (
                    <Button variant="default" leftSection={<IconKey size={16} />} onClick={() => setSettingPassword(true)} data-testid="set-password-at-desk">
                      {texts.adminCommerce.setPasswordButton}
                    </Button>
                  )}
                </Group>
                <SetPasswordAtDesk
                  opened={settingPassword}
                  onClose={() => setSettingPassword(false)}
                  customerId={c.customer_id}
                  name={`${c.name} ${c.last_name}`.trim()}
                />
              </Group>
              <SimpleGrid cols={3}>
                <Card withBorder>
                  <Text size="sm" c="dimmed">
                    Créditos disponibles
                  </Text>
                  <Text fw={700} size="xl" data-testid="admin-customer-credits">
                    {data.credits.has_unlimited ? 'Ilimitado' : data.credits.total}
                  </Text>
                </Card>
                <Card withBorder>
                  <Text size="sm" c="dimmed">
                    Compras (activas)
                  </Text>
                  <Text fw={700} size="xl">
                    {data.purchases_summary.total} ({data.purchases_summary.active})
                  </Text>
                </Card>
                <Card withBorder>
                  <Text size="sm" c="dimmed">
                    Total pagado
                  </Text>
                  <Text fw={700} size="xl">
                    {money(data.purchases_summary.total_paid)}
                  </Text>
                </Card>
              </SimpleGrid>
              <CustomerEdit data={data} />
              <Title order={4}>Créditos vigentes</Title>
              {data.credits.available_classes.length === 0 ? (
                <Text c="dimmed">Sin créditos vigentes.</Text>
              ) : (
                <Table striped data-testid="admin-customer-credit-rows">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Clases</Table.Th>
                      <Table.Th>Tipo de clase</Table.Th>
                      <Table.Th>Horarios</Table.Th>
                      <Table.Th>Vence</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.credits.available_classes.map((c) => (
                      <Table.Tr key={c.available_class_id}>
                        <Table.Td>{c.available_classes === -1 ? 'Ilimitadas' : c.available_classes}</Table.Td>
                        <Table.Td>{c.class_types?.name ?? 'Cualquiera'}</Table.Td>
                        <Table.Td>{c.allowed_times ?? 'Cualquiera'}</Table.Td>
                        <Table.Td>{c.expiration_date ? dateOf(c.expiration_date) : 'Sin vencimiento'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              <Title order={4}>Compras</Title>
              {data.purchases.length === 0 ? (
                <Text c="dimmed">{t.empty}</Text>
              ) : (
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Paquete</Table.Th>
                      <Table.Th>Total</Table.Th>
                      <Table.Th>Estado</Table.Th>
                      <Table.Th>Descuento</Table.Th>
                      <Table.Th>Vence</Table.Th>
                      <Table.Th />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.purchases.map((p) => (
                      <Table.Tr key={p.purchase_id} data-testid="admin-customer-purchase">
                        <Table.Td>{p.title}</Table.Td>
                        <Table.Td>{money(p.total_payment)}</Table.Td>
                        <Table.Td>{purchaseStatusOf(p)}</Table.Td>
                        <Table.Td>{p.discount?.code ?? '—'}</Table.Td>
                        <Table.Td>{p.expiration_date ? dateOf(p.expiration_date) : '—'}</Table.Td>
                        <Table.Td>
                          {paid(p) && (
                            <Button size="compact-sm" variant="subtle" color="red" onClick={() => setRefunding(p)}>
                              {m.refund}
                            </Button>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              <CustomerActivity customerId={data.customer.customer_id} />
            </Stack>
          );
        }}
      </Loaded>
      {refunding && <RefundModal purchase={refunding} onClose={() => setRefunding(null)} />}
    </Stack>
  );
}

function CustomerEdit({ data }: { data: AdminCustomer }) {
  const c = data.customer;
  const form = useSchemaForm({
    name: c.name,
    last_name: c.last_name,
    email: c.email,
    phone: c.phone ?? '',
    instagram: c.instagram ?? '',
    birthdate: c.birthdate ?? '',
    role: c.role as string | null,
  });
  const v = form.values;
  const utils = api.useUtils();
  const [saved, setSaved] = useState(false);
  /** Promoting to Administrador gives everything: asked first (decision 037); the change is logged in Actividad by the server. */
  const [confirmingPromotion, setConfirmingPromotion] = useState(false);
  const emailChanged = v.email.trim().toLowerCase() !== c.email;
  // A Coach reads its classes once linked to its coach (decision 045): chosen here as it is promoted, or in Coaches › Cuenta del coach.
  const instructors = api.instructors.list.useQuery(undefined, { enabled: v.role === 'coach' });
  const linkedTo = instructors.data?.instructors.find((i) => i.account_email === c.email) ?? null;
  const [coachId, setCoachId] = useState<string | null>(null);
  const chosenCoach = coachId ?? (linkedTo ? String(linkedTo.instructor_id) : null);
  const link = api.instructors.update.useMutation({ onSuccess: () => void utils.instructors.invalidate(), onError: (error) => form.serverError(error) });
  const save = api.customer.update.useMutation({
    onSuccess: (r, input) => {
      if (r.customer.role === 'coach' && coachId !== null && coachId !== String(linkedTo?.instructor_id ?? '')) {
        link.mutate({ id: Number(coachId), customer_email: r.customer.email });
      }
      setSaved(true);
      notifications.show({ color: 'teal', message: input.email !== undefined ? m.emailChanged : t.saved });
      void utils.customer.invalidate();
    },
    onError: (error) => {
      // A taken e-mail is the e-mail field's problem: said under it, not above the form.
      if (error.data?.domainCode === 'customer/email-taken') form.fieldError('email', errorText(error));
      else form.serverError(error);
    },
  });
  const submit = (promotionConfirmed = false) => {
    setSaved(false);
    if (!promotionConfirmed && v.role === 'admin' && c.role !== 'admin') {
      setConfirmingPromotion(true);
      return;
    }
    setConfirmingPromotion(false);
    const input = form.validate(customerSaveInput, {
      customer_id: c.customer_id,
      name: v.name,
      last_name: v.last_name,
      // Only a changed e-mail is sent: it moves the sign-in and ends the customer's sessions (the server's e-mail-change rules).
      ...(emailChanged ? { email: v.email.trim() } : {}),
      ...(v.phone.trim() ? { phone: v.phone.trim() } : {}),
      instagram: textOrNull(v.instagram),
      birthdate: textOrNull(v.birthdate),
      role: v.role ?? undefined,
    });
    if (input) save.mutate(input);
  };
  return (
    <Card withBorder>
      <Stack gap="sm" data-testid="admin-customer-edit">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Nombre" value={v.name} onChange={(e) => form.set('name', e.currentTarget.value)} error={form.errors.name} />
          <TextInput label="Apellido" value={v.last_name} onChange={(e) => form.set('last_name', e.currentTarget.value)} error={form.errors.last_name} />
          <TextInput
            label="Correo electrónico"
            type="email"
            value={v.email}
            onChange={(e) => form.set('email', e.currentTarget.value)}
            error={form.errors.email}
            description={emailChanged ? 'Al guardar, el cliente entrará con este correo y se cerrarán sus sesiones.' : undefined}
          />
          <TextInput label="Teléfono" value={v.phone} onChange={(e) => form.set('phone', e.currentTarget.value)} error={form.errors.phone} />
          <TextInput label="Instagram" value={v.instagram} onChange={(e) => form.set('instagram', e.currentTarget.value)} error={form.errors.instagram} />
          <DateField label="Fecha de nacimiento" value={v.birthdate || null} onChange={(day) => form.set('birthdate', day ?? '')} error={form.errors.birthdate} testId="customer-birthdate" />
          <Select
            label="Rol"
            data={Object.entries(roleText).map(([value, label]) => ({ value, label }))}
            value={v.role}
            onChange={(x) => form.set('role', x)}
            error={form.errors.role}
            allowDeselect={false}
          />
          {v.role === 'coach' && (
            <Select
              label={texts.coachAccount.whichCoach}
              description={texts.coachAccount.customerHint}
              placeholder={texts.coachAccount.noCoach}
              data={(instructors.data?.instructors ?? []).map((i) => ({ value: String(i.instructor_id), label: `${i.name} ${i.last_name}`.trim() }))}
              value={chosenCoach}
              onChange={setCoachId}
              allowDeselect={false}
              data-testid="customer-coach-link"
            />
          )}
        </SimpleGrid>
        <FormError message={form.formError} />
        {saved && <Alert color="teal">{t.saved}</Alert>}
        <Group justify="flex-end">
          <Button onClick={() => submit()} loading={save.isPending || link.isPending}>
            {t.save}
          </Button>
        </Group>
        <Modal opened={confirmingPromotion} onClose={() => setConfirmingPromotion(false)} title={activityTexts.promoteTitle}>
          <Stack>
            <Text size="sm">{activityTexts.promoteBody(`${v.name} ${v.last_name}`.trim())}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirmingPromotion(false)}>
                {activityTexts.cancel}
              </Button>
              <Button color="red" onClick={() => submit(true)} data-testid="confirm-promotion">
                {activityTexts.promoteConfirm}
              </Button>
            </Group>
          </Stack>
        </Modal>
      </Stack>
    </Card>
  );
}

/**
 * Decision 079: the customer, at the counter, types her new password on the
 * studio's screen (masked); staff never see a code that signs in as her.
 */
function SetPasswordAtDesk({ opened, onClose, customerId, name }: { opened: boolean; onClose: () => void; customerId: number; name: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setPassword('');
    setConfirm('');
    setError(null);
    onClose();
  };
  const save = api.customer.setPassword.useMutation({
    onSuccess: (r) => {
      notifications.show({ color: 'teal', message: r.message });
      close();
    },
    onError: (e) => setError(errorText(e)),
  });
  const t = texts.adminCommerce;
  return (
    <Modal opened={opened} onClose={close} title={t.setPasswordTitle} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (password !== confirm) return setError(texts.auth.passwordsMismatch);
          setError(null);
          save.mutate({ customer_id: customerId, password, password_confirm: confirm });
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{t.setPasswordIntro(name)}</Text>
          <PasswordInput label={t.setPasswordField} value={password} onChange={(e) => setPassword(e.currentTarget.value)} autoComplete="new-password" required data-testid="desk-new-password" />
          <PasswordInput label={t.setPasswordConfirm} value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} autoComplete="new-password" required data-testid="desk-new-password-confirm" />
          {error && (
            <Text c="red" size="sm" role="alert">
              {error}
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!password || !confirm}>
              {t.setPasswordSave}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
