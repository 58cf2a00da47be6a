import { Avatar, Badge, Button, Card, Center, Group, Loader, Menu, Modal, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCalendarPlus, IconChevronDown, IconMinus, IconPencil, IconPlus, IconShoppingCart } from '@tabler/icons-react';
import { activityTexts, isReasonGiven, mxTexts, texts } from '@estudio/core';
import { useEffect, useState } from 'react';
import { dateOf, dateTimeOf, errorText, money, purchaseStatusOf } from '../format.ts';
import { useSavedNotice } from '../saved.ts';
import { trpc, type DeskOutputs } from '../trpc.ts';
import { CustomerActivity } from '../admin/activity/CustomerActivity.tsx';
import { CounterSaleModal } from '../cash/CounterSale.tsx';
import { GiveAccessModal, ReasonField, RemoveClassesModal, WalkInModal } from './ActionModals.tsx';
import { CounterWarnings } from './CounterWarnings.tsx';
import { CustomerAnswers } from './CustomerAnswers.tsx';
import { ProductPurchases } from '../cash/ProductReturns.tsx';
import { CustomerNotes } from './CustomerNotes.tsx';
import { EditCustomerModal } from './EditCustomerModal.tsx';
import { ReservationMenu } from './ReservationActions.tsx';
import { PurchaseInvoice, useCustomerInvoices } from './PurchaseInvoice.tsx';

const t = texts.desk;
type Card = DeskOutputs['customers']['card'];

/** Everything the desk knows about one customer, and what staff can do for them. */
export function CustomerCard({ customerId, onFollow }: { customerId: number; onFollow?: (customerId: number) => void }) {
  const card = trpc.customers.card.useQuery({ customer_id: customerId });
  const photo = trpc.customers.photo.useQuery({ customer_id: customerId }, { staleTime: Infinity });
  const session = trpc.session.get.useQuery();
  const [modal, setModal] = useState<'walkIn' | 'sell' | 'giveAccess' | 'removeClasses' | 'edit' | null>(null);
  // A customer registered offline is shown by her temporary id until the server gives hers (decision 113): follow it.
  const shownId = card.data?.customer.customer_id;
  useEffect(() => {
    if (shownId !== undefined && shownId !== customerId) onFollow?.(shownId);
  }, [shownId, customerId, onFollow]);
  if (card.isPending) return <Center p="xl"><Loader /></Center>;
  // A failed refresh keeps the card it has: replacing it would close whatever dialog the receptionist has open on it.
  if (!card.data) return <Text c="red">{errorText(card.error)}</Text>;
  const c = card.data;
  const person = c.customer;
  return (
    <Card withBorder padding="lg" data-testid="customer-card">
      <Group justify="space-between" align="flex-start">
        <Group gap="md" wrap="nowrap" miw={0}>
          <Avatar src={photo.data ?? null} alt={`${person.name} ${person.last_name}`} size={64} radius="md" color="teal" data-testid="card-avatar" data-photo={photo.data ? 'yes' : 'no'}>
            {`${person.name.trim().charAt(0)}${person.last_name.trim().charAt(0)}`.toUpperCase()}
          </Avatar>
          <div>
            <Title order={2}>
              {person.name} {person.last_name}
            </Title>
            <Text c="dimmed">{[person.email, person.phone].filter(Boolean).join(' · ')}</Text>
          </div>
        </Group>
        <Group gap="xs">
          <Button leftSection={<IconCalendarPlus size={18} />} onClick={() => setModal('walkIn')}>
            {t.walkIn}
          </Button>
          <Button variant="light" color="teal" leftSection={<IconShoppingCart size={18} />} onClick={() => setModal('sell')}>
            {texts.counterSale.sell}
          </Button>
          <Button variant="light" leftSection={<IconPlus size={18} />} onClick={() => setModal('giveAccess')}>
            {t.giveAccess}
          </Button>
          <Button variant="light" color="orange" leftSection={<IconMinus size={18} />} onClick={() => setModal('removeClasses')}>
            {t.removeClasses}
          </Button>
          {/* Recepción edits customers; the staff's own accounts are an administrator's (decision 107). */}
          {(person.role === 'customer' || session.data?.user?.role === 'admin') && (
            <Button variant="default" leftSection={<IconPencil size={18} />} onClick={() => setModal('edit')}>
              {t.editCustomer}
            </Button>
          )}
        </Group>
      </Group>

      <CounterWarnings customerId={person.customer_id} customerName={`${person.name} ${person.last_name}`} />
      <CustomerNotes customerId={person.customer_id} />
      <Group mt="md" gap="xl" align="flex-start">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">{t.credits}</Text>
          <Text fz={32} fw={700} data-testid="credit-total">
            {c.totalCredits === -1 ? t.creditsUnlimited : c.totalCredits}
          </Text>
        </Stack>
        {c.unlimited.active && (
          <Stack gap={2}>
            <Text size="sm" c="dimmed">{t.membership}</Text>
            <Text fw={600}>
              {t.membershipUntil} {c.unlimited.expiresAt ? dateOf(c.unlimited.expiresAt) : t.noExpiry}
            </Text>
          </Stack>
        )}
      </Group>
      <Credits card={c} />
      <CustomerAnswers customerId={person.customer_id} />

      <Tabs defaultValue="upcoming" mt="lg" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="upcoming">{t.upcoming} ({c.upcoming.length})</Tabs.Tab>
          <Tabs.Tab value="past">{t.past}</Tabs.Tab>
          <Tabs.Tab value="purchases">{t.purchases}</Tabs.Tab>
          <Tabs.Tab value="products" data-testid="card-products-tab">{texts.productReturns.tab}</Tabs.Tab>
          <Tabs.Tab value="penalties">
            {t.penalties} {c.penalties.some((p) => p.active) && <Badge color="red" size="xs">{t.penaltyActive}</Badge>}
          </Tabs.Tab>
          <Tabs.Tab value="activity" data-testid="card-activity-tab">{activityTexts.nav}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="upcoming" pt="sm"><Reservations rows={c.upcoming} customer={person} /></Tabs.Panel>
        <Tabs.Panel value="past" pt="sm"><Reservations rows={c.past} /></Tabs.Panel>
        <Tabs.Panel value="purchases" pt="sm"><Purchases card={c} /></Tabs.Panel>
        <Tabs.Panel value="products" pt="sm"><ProductPurchases customerId={person.customer_id} /></Tabs.Panel>
        <Tabs.Panel value="penalties" pt="sm"><Penalties card={c} /></Tabs.Panel>
        <Tabs.Panel value="activity" pt="sm"><CustomerActivity customerId={customerId} /></Tabs.Panel>
      </Tabs>

      <WalkInModal opened={modal === 'walkIn'} onClose={() => setModal(null)} customer={person} onSell={() => setModal('sell')} />
      <CounterSaleModal opened={modal === 'sell'} onClose={() => setModal(null)} customer={person} />
      <GiveAccessModal opened={modal === 'giveAccess'} onClose={() => setModal(null)} customer={person} />
      <RemoveClassesModal opened={modal === 'removeClasses'} onClose={() => setModal(null)} customer={person} available={c.totalCredits} />
      {modal === 'edit' && <EditCustomerModal opened onClose={() => setModal(null)} customer={person} isAdmin={session.data?.user?.role === 'admin'} />}
    </Card>
  );
}

function Credits({ card }: { card: Card }) {
  if (!card.credits.length) return <Text size="sm" c="dimmed" mt="xs">{t.creditsNone}</Text>;
  return (
    <Table mt="xs" withTableBorder>
      <Table.Tbody>
        {card.credits.map((credit) => (
          <Table.Tr key={credit.available_class_id}>
            <Table.Td>{credit.class_type ?? t.anyClassType}</Table.Td>
            <Table.Td fw={600}>{credit.available_classes === -1 ? t.creditsUnlimited : credit.available_classes}</Table.Td>
            <Table.Td c="dimmed">
              {credit.expiration_date ? `${t.expires} ${dateOf(credit.expiration_date)}` : t.noExpiry}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Reservations({ rows, customer }: { rows: Card['upcoming']; customer?: Card['customer'] }) {
  const saved = useSavedNotice();
  const markPaid = trpc.actions.markReservationPaid.useMutation({
    onSuccess: () => saved(t.paymentRecorded),
    onError: (e) => notifications.show({ color: 'red', message: errorText(e) }),
  });
  if (!rows.length) return <Text size="sm" c="dimmed">{t.noReservations}</Text>;
  return (
    <Table striped>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.class_reservation_id} data-reservation-id={r.class_reservation_id}>
            <Table.Td>{dateTimeOf(r.class_date)}</Table.Td>
            <Table.Td>{r.class_type}</Table.Td>
            <Table.Td>{r.location}</Table.Td>
            <Table.Td>{r.spot !== null ? `${t.seat} ${r.spot}` : ''}{r.guest ? ` · ${t.guest}: ${r.guest}` : ''}</Table.Td>
            {/* Badges at their own width: squeezed, 'ASISTIÓ' read 'A…'. */}
            <Table.Td miw="max-content">
              <Group gap={4} wrap="nowrap">
                {r.deletedAt && <Badge color="red" variant="light" miw="max-content">{t.cancelled}</Badge>}
                {r.classCancelledAt && <Badge color="red" miw="max-content">{t.classCancelled}</Badge>}
                {r.attend && <Badge color="teal" miw="max-content">{t.attended}</Badge>}
                {r.is_cash && !r.deletedAt && (
                  r.is_paid ? (
                    <Badge color="teal" variant="light">{t.cashPaid}</Badge>
                  ) : (
                    <Button size="compact-xs" color="yellow" onClick={() => markPaid.mutate({ class_reservation_id: r.class_reservation_id })}>
                      {t.cashUnpaid} · {t.markPaid}
                    </Button>
                  )
                )}
              </Group>
            </Table.Td>
            {customer && (
              <Table.Td w={40}>
                {/* Cancel, move or undo the check-in of an upcoming reservation. */}
                {!r.deletedAt && !r.classCancelledAt && (
                  <ReservationMenu r={{ ...r, customer_id: customer.customer_id, name: `${customer.name} ${customer.last_name}` }} />
                )}
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Purchases({ card }: { card: Card }) {
  const saved = useSavedNotice();
  const markPaid = trpc.actions.markPurchasePaid.useMutation({
    onSuccess: () => saved(t.paymentRecorded),
    onError: (e) => notifications.show({ color: 'red', message: errorText(e) }),
  });
  const [confirming, setConfirming] = useState<{ purchase_id: number; title: string } | null>(null);
  // Invoices live on the server only (not in the replica): read from it, as Actividad is.
  const invoices = useCustomerInvoices(card.customer.customer_id);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const revoke = trpc.actions.revokeAccess.useMutation({
    onSuccess: () => {
      setConfirming(null);
      saved(t.accessRemoved);
    },
  });
  if (!card.purchases.length) return <Text size="sm" c="dimmed">{t.noPurchases}</Text>;
  return (
    <>
      <Modal opened={!!confirming} onClose={() => setConfirming(null)} title={`${t.revokeAccess}: ${confirming?.title ?? ''}`}>
        <Stack>
          <Text size="sm">{t.revokeConfirm}</Text>
          <ReasonField
            value={reason}
            error={reasonError}
            onChange={(v) => {
              setReason(v);
              setReasonError(null);
            }}
          />
          {revoke.error && <Text c="red" size="sm" role="alert">{errorText(revoke.error)}</Text>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>{t.cancel}</Button>
            <Button color="red" loading={revoke.isPending} onClick={() => {
                if (!confirming) return;
                // A revocation needs a reason (decision 037); the server says it too.
                if (!isReasonGiven(reason)) return setReasonError(activityTexts.reasonRequired);
                revoke.mutate({ purchase_id: confirming.purchase_id, reason: reason.trim() });
              }}>
              {t.revokeAccess}
            </Button>
          </Group>
        </Stack>
      </Modal>
      {/* Seven columns do not fit the card's width: the table scrolls sideways inside the card instead of spilling out of it. */}
      <Table.ScrollContainer minWidth={640} type="native">
      <Table striped>
        <Table.Tbody>
          {card.purchases.map((p) => (
            <Table.Tr key={p.purchase_id} data-purchase-id={p.purchase_id}>
              <Table.Td>{dateOf(p.createdAt)}</Table.Td>
              <Table.Td>
                {p.title} {p.is_gift && <Badge size="xs" color="grape">{t.gift}</Badge>}
                {p.next_charge_date && (
                  <Text size="xs" c="dimmed" data-testid="next-charge" style={{ whiteSpace: 'nowrap' }}>
                    {`${texts.purchases.nextCharge} ${dateOf(p.next_charge_date)}`}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{money(p.total_payment)}</Table.Td>
              <Table.Td>{p.payment_channel === 'oxxo' ? mxTexts.methods.oxxo : p.payment_channel === 'spei' ? mxTexts.methods.spei : (p.payment_method ?? p.provider ?? '')}</Table.Td>
              <Table.Td>
                <Badge variant="light" style={{ flexShrink: 0 }} miw="max-content" color={p.status === 'pending' ? 'yellow' : p.status === 'revoked' || p.status === 'failed' ? 'red' : 'teal'}>
                  {purchaseStatusOf(p)}
                </Badge>
              </Table.Td>
              <Table.Td>
                <PurchaseInvoice purchaseId={p.purchase_id} invoices={invoices.data} />
              </Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end">
                  {p.status === 'pending' && !p.payment_channel && (
                    // How the money came in decides the drawer: cash counts in the cash-up, a transfer does not.
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <Button size="compact-xs" color="yellow" rightSection={<IconChevronDown size={12} />} loading={markPaid.isPending}>
                          {t.markPaid}
                        </Button>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Label>{t.markPaidHow}</Menu.Label>
                        <Menu.Item onClick={() => markPaid.mutate({ purchase_id: p.purchase_id, paid_with: 'cash' })}>{t.markPaidCash}</Menu.Item>
                        <Menu.Item onClick={() => markPaid.mutate({ purchase_id: p.purchase_id, paid_with: 'transfer' })}>{t.markPaidTransfer}</Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  )}
                  {(p.status === 'active' || p.status === 'completed') && (
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => { revoke.reset(); setReason(''); setReasonError(null); setConfirming({ purchase_id: p.purchase_id, title: p.title }); }}>
                      {t.revokeAccess}
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      </Table.ScrollContainer>
    </>
  );
}

function Penalties({ card }: { card: Card }) {
  if (!card.penalties.length) return <Text size="sm" c="dimmed">{t.noPenalties}</Text>;
  return (
    <Table>
      <Table.Tbody>
        {card.penalties.map((p) => (
          <Table.Tr key={p.class_reservation_penalty_id}>
            <Table.Td>{dateOf(p.start_date)} – {dateOf(p.end_date)}</Table.Td>
            <Table.Td>{p.no_shows} faltas</Table.Td>
            <Table.Td>{p.reason}</Table.Td>
            <Table.Td>{p.active && <Badge color="red">{t.penaltyActive}</Badge>}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
