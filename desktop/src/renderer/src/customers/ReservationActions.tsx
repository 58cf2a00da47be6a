import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  Radio,
  Select,
  Spoiler,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowsExchange, IconDots, IconListNumbers, IconRotate2, IconUserPlus, IconX } from '@tabler/icons-react';
import { seatStates, texts } from '@estudio/core';
import { memo, useEffect, useState, type FormEvent } from 'react';
import { dateTimeOf, errorText, fieldErrorText, timeOf } from '../format.ts';
import { useDeskOnline, useSavedNotice } from '../saved.ts';
import { trpc } from '../trpc.ts';
import { DocumentText } from './CounterWarnings.tsx';

/** Decision 017: cancel, undo a check-in, move, a class's waitlist and a first-time walk-in. */
const t = texts.deskActions;
const d = texts.desk;

/** A live reservation as the roster and the customer card know it. */
export interface ReservationRef {
  class_reservation_id: number;
  customer_id: number;
  single_class_id: number;
  name: string;
  attend: boolean;
  attendedAt?: string | null;
}

type Open = 'cancel' | 'undo' | 'move' | null;

const sameRef = (a: ReservationRef, b: ReservationRef) =>
  a.class_reservation_id === b.class_reservation_id &&
  a.customer_id === b.customer_id &&
  a.single_class_id === b.single_class_id &&
  a.name === b.name &&
  a.attend === b.attend &&
  (a.attendedAt ?? null) === (b.attendedAt ?? null);

/**
 * The '⋯' menu of a reservation: undo the check-in, move to another class,
 * cancel. Redrawn only when what it says changes: a roster redraws after each
 * check-in, and its menus were most of that redraw.
 */
export const ReservationMenu = memo(
  ReservationMenuOf,
  (before, after) => before.disabled === after.disabled && before.defaultOpened === after.defaultOpened && sameRef(before.r, after.r),
);

function ReservationMenuOf({ r, disabled, defaultOpened }: { r: ReservationRef; disabled?: boolean | undefined; defaultOpened?: boolean | undefined }) {
  const [open, setOpen] = useState<Open>(null);
  return (
    <>
      <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t.reservationMenu(r.name)} disabled={disabled} data-testid="reservation-menu">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {r.attend && (
            <Menu.Item leftSection={<IconRotate2 size={16} />} onClick={() => setOpen('undo')}>
              {t.undoCheckIn}
            </Menu.Item>
          )}
          {!r.attend && (
            <Menu.Item leftSection={<IconArrowsExchange size={16} />} onClick={() => setOpen('move')}>
              {t.move}
            </Menu.Item>
          )}
          <Menu.Item color="red" leftSection={<IconX size={16} />} onClick={() => setOpen('cancel')}>
            {t.cancel}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {/* Mounted when opened: a roster draws one menu per person, and each closed dialog cost every redraw its work. */}
      {open === 'cancel' && <CancelReservationModal opened onClose={() => setOpen(null)} r={r} />}
      {open === 'undo' && <UndoCheckInModal opened onClose={() => setOpen(null)} r={r} />}
      {open === 'move' && <MoveReservationModal opened onClose={() => setOpen(null)} r={r} />}
    </>
  );
}

interface RefModalProps {
  opened: boolean;
  onClose: () => void;
  r: ReservationRef;
}

/**
 * Says what the studio's rules do (credit back, or not because it is late, or
 * not allowed), then cancels; 'Decidir el crédito' lets staff give it back (or
 * not) whatever the rules say, with a reason kept with their name.
 */
export function CancelReservationModal({ opened, onClose, r }: RefModalProps) {
  const saved = useSavedNotice();
  const preview = trpc.reservations.cancelPreview.useQuery({ class_reservation_id: r.class_reservation_id }, { enabled: opened, gcTime: 0 });
  const cancel = trpc.actions.cancelReservation.useMutation();
  const [override, setOverride] = useState(false);
  const [credit, setCredit] = useState<'return' | 'keep'>('return');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  useEffect(() => {
    if (!opened) return;
    setOverride(false);
    setCredit('return');
    setReason('');
    setProblem(null);
    setReasonError(null);
  }, [opened]);
  const p = preview.data;
  // Refused by the rules: only an override can cancel.
  const mustOverride = p ? !p.allowed : false;
  const overriding = override || mustOverride;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (overriding && reason.trim().length < 3) {
      setReasonError(t.reasonRequired);
      return;
    }
    try {
      await cancel.mutateAsync({
        class_reservation_id: r.class_reservation_id,
        customer_id: r.customer_id,
        single_class_id: r.single_class_id,
        at: new Date().toISOString(),
        return_credit: overriding ? credit === 'return' : null,
        reason: overriding ? reason.trim() : null,
      });
      saved(t.cancelled);
      onClose();
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={`${t.cancelTitle} ${r.name}`} data-testid="cancel-modal">
      <form onSubmit={submit}>
        <Stack>
          {problem && <Alert color="red" role="alert">{problem}</Alert>}
          {preview.isPending && <Loader size="sm" />}
          {preview.error && <Alert color="red">{errorText(preview.error)}</Alert>}
          {p && (
            <>
              <Text fw={600}>
                {p.class_type} · {dateTimeOf(p.class_date)}
              </Text>
              <Alert color={p.allowed && (p.creditReturned || p.unlimited) ? 'teal' : 'orange'} data-testid="cancel-rule">
                {p.ruleText}
              </Alert>
              {!mustOverride && !p.unlimited && (
                <Checkbox label={t.override} checked={override} onChange={(e) => setOverride(e.currentTarget.checked)} data-testid="cancel-override" />
              )}
              {overriding && (
                <>
                  {!p.unlimited && (
                    <Radio.Group value={credit} onChange={(v) => setCredit(v === 'keep' ? 'keep' : 'return')}>
                      <Stack gap={6}>
                        <Radio value="return" label={t.overrideReturn} />
                        <Radio value="keep" label={t.overrideKeep} />
                      </Stack>
                    </Radio.Group>
                  )}
                  <Textarea
                    label={t.reason}
                    placeholder={t.reasonPlaceholder}
                    value={reason}
                    error={reasonError}
                    maxLength={300}
                    autosize
                    minRows={2}
                    onChange={(e) => {
                      setReason(e.currentTarget.value);
                      setReasonError(null);
                    }}
                    data-testid="cancel-reason"
                  />
                </>
              )}
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t.back}</Button>
            <Button type="submit" color="red" loading={cancel.isPending} disabled={!p}>
              {t.confirmCancel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function UndoCheckInModal({ opened, onClose, r }: RefModalProps) {
  const saved = useSavedNotice();
  const undo = trpc.actions.undoCheckIn.useMutation();
  useEffect(() => {
    if (opened) undo.reset();
  }, [opened]);
  const confirm = async () => {
    try {
      await undo.mutateAsync({ class_reservation_id: r.class_reservation_id, customer_id: r.customer_id, single_class_id: r.single_class_id });
      saved(t.undone);
      onClose();
    } catch {
      // Shown below from undo.error.
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t.undoCheckIn} data-testid="undo-modal">
      <Stack>
        <Text>{t.undoCheckInConfirm(r.name, r.attendedAt ? timeOf(r.attendedAt) : '—')}</Text>
        {undo.error && <Alert color="red" role="alert">{errorText(undo.error)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t.back}</Button>
          <Button color="orange" loading={undo.isPending} onClick={() => void confirm()}>
            {t.undoCheckIn}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Picks the new class (and seat); the booking moves with its credit, or nothing changes when the class is full. */
export function MoveReservationModal({ opened, onClose, r }: RefModalProps) {
  const saved = useSavedNotice();
  const classes = trpc.customers.bookableClasses.useQuery(undefined, { enabled: opened });
  const move = trpc.actions.moveReservation.useMutation();
  const [classId, setClassId] = useState<string | null>(null);
  const [spot, setSpot] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!opened) return;
    setClassId(null);
    setSpot(null);
    setProblem(null);
    setError(null);
  }, [opened]);
  const current = classes.data?.find((c) => c.single_class_id === r.single_class_id);
  const chosen = classes.data?.find((c) => String(c.single_class_id) === classId);
  // Moving takes a new place in the chosen class: its seats as for anyone booking there.
  const seats = seatStates(chosen?.spot_map, chosen?.takenSpots ?? [], chosen ? chosen.capacity - chosen.booked : 0).flatMap((row) => row.seats);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return setError(d.pickClass);
    if (seats.length && spot === null) return setError(d.pickSeat);
    try {
      await move.mutateAsync({
        class_reservation_id: r.class_reservation_id,
        customer_id: r.customer_id,
        from_single_class_id: r.single_class_id,
        single_class_id: chosen.single_class_id,
        spot: spot === null ? null : Number(spot),
      });
      saved(t.moved);
      onClose();
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={`${t.moveTitle} ${r.name}`} size="lg" data-testid="move-modal">
      <form onSubmit={submit}>
        <Stack>
          {problem && <Alert color="red" role="alert">{problem}</Alert>}
          <Text size="sm" c="dimmed">{t.moveHint}</Text>
          {current && (
            <Text size="sm">
              {t.moveFrom}: <b>{dateTimeOf(current.class_date)} · {current.class_type} · {current.location}</b>
            </Text>
          )}
          <Select
            label={t.moveTo}
            searchable
            data-autofocus
            value={classId}
            error={!chosen ? error : null}
            onChange={(v) => {
              setClassId(v);
              setSpot(null);
              setError(null);
            }}
            data={(classes.data ?? [])
              .filter((c) => c.single_class_id !== r.single_class_id)
              .map((c) => {
                const full = c.booked >= c.capacity;
                return {
                  value: String(c.single_class_id),
                  label: `${dateTimeOf(c.class_date)} · ${c.class_type} · ${c.location} (${c.booked}/${c.capacity})${full ? ` · ${d.walkInFull}` : ''}`,
                  disabled: full || c.customerIds.includes(r.customer_id),
                };
              })}
          />
          {chosen && seats.length > 0 && (
            <Select
              label={d.walkInSeat}
              value={spot}
              error={chosen ? error : null}
              onChange={(v) => {
                setSpot(v);
                setError(null);
              }}
              data={seats.map((s) => ({ value: String(s.seat), label: `${d.seat} ${s.seat}`, disabled: s.state !== 'free' }))}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t.back}</Button>
            <Button type="submit" loading={move.isPending}>{t.move}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The class card's 'Lista de espera' button and its modal. */
export function WaitlistButton({ singleClassId, disabled }: { singleClassId: number; disabled?: boolean }) {
  const [opened, setOpened] = useState(false);
  // One read for every card on the screen (the same query, shared).
  const counts = trpc.reservations.waitlistCounts.useQuery();
  const waiting = counts.data?.[singleClassId] ?? 0;
  return (
    <>
      <Button
        size="compact-xs"
        variant={waiting ? 'filled' : 'light'}
        color="grape"
        leftSection={<IconListNumbers size={14} />}
        onClick={() => setOpened(true)}
        disabled={disabled}
        data-testid="waitlist-button"
        data-waiting={waiting}
      >
        {t.waitlist}
        {waiting ? ` (${waiting})` : ''}
      </Button>
      {opened && <WaitlistModal opened onClose={() => setOpened(false)} singleClassId={singleClassId} />}
    </>
  );
}

/**
 * A class's waitlist in the order people joined: give the first the freed
 * place (a desk booking with their credit, which also takes them off the
 * list), take someone off, or add a customer found by name, e-mail or phone.
 */
export function WaitlistModal({ opened, onClose, singleClassId }: { opened: boolean; onClose: () => void; singleClassId: number }) {
  const saved = useSavedNotice();
  const list = trpc.reservations.waitlist.useQuery({ single_class_id: singleClassId }, { enabled: opened });
  const join = trpc.actions.joinWaitlist.useMutation();
  const leave = trpc.actions.leaveWaitlist.useMutation();
  const promote = trpc.actions.walkIn.useMutation();
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 80);
  const search = trpc.customers.search.useQuery({ q: debounced }, { enabled: opened && debounced.trim().length > 1 });
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!opened) return;
    setQ('');
    setProblem(null);
  }, [opened]);
  const run = async (action: () => Promise<unknown>, message: string) => {
    setProblem(null);
    try {
      await action();
      saved(message);
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  const w = list.data;
  return (
    <Modal opened={opened} onClose={onClose} title={w ? `${t.waitlistTitle} ${w.class_type} · ${dateTimeOf(w.class_date)}` : t.waitlist} size="lg" data-testid="waitlist-modal">
      <Stack>
        {problem && <Alert color="red" role="alert">{problem}</Alert>}
        {list.isPending && <Loader size="sm" />}
        {list.error && <Alert color="red">{errorText(list.error)}</Alert>}
        {w && (
          <>
            <Group gap="xs">
              <Badge variant="light">
                {w.taken}/{w.capacity}
              </Badge>
              <Text size="sm" c={w.free > 0 ? 'teal' : 'dimmed'} data-testid="waitlist-free">
                {w.free > 0 ? t.waitlistPlaces(w.free) : t.waitlistNoPlace}
              </Text>
            </Group>
            {w.entries.length === 0 ? (
              <Text size="sm" c="dimmed">{t.waitlistEmpty}</Text>
            ) : (
              <Table>
                <Table.Tbody>
                  {w.entries.map((e, i) => (
                    <Table.Tr key={e.waitlist_id} data-testid="waitlist-entry" data-customer-id={e.customer_id}>
                      <Table.Td w={32}>
                        <Text fw={700}>{i + 1}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text fw={600} size="sm">
                          {e.name} {e.last_name}{' '}
                          {!e.has_credit && (
                            <Badge size="xs" color="orange" variant="light" title={t.waitlistNoCreditsHint} data-testid="waitlist-no-credits">
                              {t.waitlistNoCredits}
                            </Badge>
                          )}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {[e.phone, e.createdAt ? `${t.waitlistSince} ${dateTimeOf(e.createdAt)}` : null].filter(Boolean).join(' · ')}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} justify="flex-end">
                          <Button
                            size="compact-xs"
                            // Without a class to pay with, the place would be refused: staff sell first (the badge says so).
                            disabled={w.free === 0 || !e.has_credit}
                            title={e.has_credit ? undefined : t.waitlistNoCreditsHint}
                            loading={promote.isPending && promote.variables?.customer_id === e.customer_id}
                            onClick={() =>
                              void run(() => promote.mutateAsync({ customer_id: e.customer_id, single_class_id: singleClassId, spot: null, guest: null }), t.promoted)
                            }
                          >
                            {t.waitlistPromote}
                          </Button>
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            color="red"
                            onClick={() => void run(() => leave.mutateAsync({ customer_id: e.customer_id, single_class_id: singleClassId }), t.waitlistRemoved)}
                          >
                            {t.waitlistRemove}
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <TextInput label={t.waitlistAdd} placeholder={t.waitlistPick} value={q} onChange={(e) => setQ(e.currentTarget.value)} data-testid="waitlist-search" />
            {debounced.trim().length > 1 &&
              (search.data ?? []).slice(0, 5).map((c) => (
                <Group key={c.customer_id} justify="space-between" wrap="nowrap">
                  <Text size="sm">
                    {c.name} {c.last_name} <Text span c="dimmed" size="xs">{[c.email, c.phone].filter(Boolean).join(' · ')}</Text>
                  </Text>
                  <Button
                    size="compact-xs"
                    variant="light"
                    data-testid="waitlist-add"
                    onClick={() =>
                      void run(async () => {
                        await join.mutateAsync({ customer_id: c.customer_id, single_class_id: singleClassId });
                        setQ('');
                      }, t.waitlistAdded)
                    }
                  >
                    {t.waitlistAdd}
                  </Button>
                </Group>
              ))}
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{d.close}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A first-time walk-in: name, phone, e-mail and the studio's required
 * documents, registered on the server; offline, in this desk until the
 * connection returns (decision 113). Then their card opens to book a class or
 * sell a package.
 */
export function NewCustomerModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (customerId: number) => void }) {
  const saved = useSavedNotice();
  const online = useDeskOnline();
  const documents = trpc.customers.documents.useQuery(undefined, { enabled: opened, retry: false });
  const create = trpc.customers.create.useMutation();
  const empty = { name: '', last_name: '', phone: '', email: '', birthdate: '' };
  const [form, setForm] = useState(empty);
  const [accepted, setAccepted] = useState<number[]>([]);
  // The optional messages need the customer's own yes, asked at the counter (decision 120).
  const [optionalMessages, setOptionalMessages] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<keyof typeof empty | 'documents', string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!opened) return;
    setForm(empty);
    setAccepted([]);
    setOptionalMessages(false);
    setErrors({});
    setProblem(null);
  }, [opened]);
  const docs = documents.data ?? [];
  const set = (key: keyof typeof empty) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const digits = form.phone.replace(/\D/g, '');
    const found = {
      name: form.name.trim() ? undefined : t.nameRequired,
      last_name: form.last_name.trim() ? undefined : t.lastNameRequired,
      phone: digits.length === 10 ? undefined : t.phoneInvalid,
      email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim()) ? undefined : t.emailInvalid,
      documents: docs.every((p) => accepted.includes(p.page_id)) ? undefined : t.documentsRequired,
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    try {
      const { customer_id, offline } = await create.mutateAsync({ ...form, phone: digits, birthdate: form.birthdate || null, accepted_page_ids: accepted, optional_messages: optionalMessages });
      saved(offline ? t.registeredOffline : t.registered);
      onCreated(customer_id);
      onClose();
    } catch (e) {
      const field = (e as { data?: { field?: unknown } }).data?.field;
      if (typeof field === 'string' && field in empty) setErrors({ [field]: fieldErrorText(e, field) });
      else setProblem(errorText(e));
    }
  };
  const unreadable = documents.error ? errorText(documents.error) : null;
  return (
    <Modal opened={opened} onClose={onClose} title={t.newCustomerTitle} size="lg" data-testid="new-customer-modal">
      <form onSubmit={submit} noValidate>
        <Stack>
          {(problem ?? unreadable) && <Alert color="red" role="alert">{problem ?? unreadable}</Alert>}
          {!online && (
            <Alert color="yellow" data-testid="register-offline">
              {t.offline}
            </Alert>
          )}
          <Group grow align="flex-start">
            <TextInput label={t.name} value={form.name} error={errors.name} onChange={(e) => set('name')(e.currentTarget.value)} data-autofocus maxLength={100} />
            <TextInput label={t.lastName} value={form.last_name} error={errors.last_name} onChange={(e) => set('last_name')(e.currentTarget.value)} maxLength={100} />
          </Group>
          <Group grow align="flex-start">
            <TextInput label={t.phone} value={form.phone} error={errors.phone} onChange={(e) => set('phone')(e.currentTarget.value)} inputMode="tel" maxLength={20} />
            <TextInput label={t.email} value={form.email} error={errors.email} onChange={(e) => set('email')(e.currentTarget.value)} type="email" maxLength={200} />
          </Group>
          {/* Typed as the customer says it (the browser's date field); optional, but the scan asks for it until it is there. */}
          <TextInput
            label={t.birthdate}
            description={t.birthdateHint}
            type="date"
            value={form.birthdate}
            error={errors.birthdate}
            onChange={(e) => set('birthdate')(e.currentTarget.value)}
            data-testid="new-customer-birthdate"
            maw={260}
          />
          {docs.length > 0 && (
            <Stack gap={6}>
              <Text size="sm" fw={500}>{t.documents}</Text>
              <Text size="xs" c="dimmed">{t.documentsHint}</Text>
              {docs.map((p) => (
                <Stack key={p.page_id} gap={4}>
                  <Spoiler maxHeight={0} showLabel={t.documentShow(p.title)} hideLabel={t.documentHide} fz="sm">
                    <Paper withBorder p="xs" radius="sm">
                      <DocumentText content={p.content} maxHeight={160} />
                    </Paper>
                  </Spoiler>
                  <Checkbox
                    label={
                      <>
                        {p.title} <Badge size="xs" variant="light" color="red">{t.required}</Badge>
                      </>
                    }
                    checked={accepted.includes(p.page_id)}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setAccepted((a) => (on ? [...a, p.page_id] : a.filter((id) => id !== p.page_id)));
                      setErrors((x) => ({ ...x, documents: undefined }));
                    }}
                  />
                </Stack>
              ))}
              {errors.documents && <Text size="sm" c="red">{errors.documents}</Text>}
            </Stack>
          )}
          <Checkbox
            label={t.optionalMessages}
            description={t.optionalMessagesHint}
            checked={optionalMessages}
            onChange={(e) => setOptionalMessages(e.currentTarget.checked)}
            data-testid="new-customer-optional-messages"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{d.cancel}</Button>
            <Button type="submit" leftSection={<IconUserPlus size={16} />} loading={create.isPending} disabled={!!unreadable}>
              {t.register}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
