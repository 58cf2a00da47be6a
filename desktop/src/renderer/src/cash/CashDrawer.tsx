import { Alert, Badge, Button, Card, Group, Loader, Modal, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCash, IconLock } from '@tabler/icons-react';
import { cashShiftNote, domainErrors, drawerAmount, drawerDifferenceCents, drawerNoteMissing, formatMXN, texts, toCents, type CashShiftOutput } from '@estudio/core';
import { useState } from 'react';
import { api } from '../admin/api.ts';
import { errorText, money, timeOf } from '../format.ts';
import { useDeskStatus } from '../saved.ts';

const t = texts.cashDrawer;

/** The schema's own words for an amount typed at the counter ('Escribe el fondo inicial en pesos…'), or the amount. */
function checkedAmount(what: string, value: string): { amount: string } | { problem: string } {
  const checked = drawerAmount(what).safeParse(value);
  return checked.success ? { amount: checked.data } : { problem: checked.error.issues[0]?.message ?? '' };
}

/** "Cuadra", "Faltan $50.00" or "Sobran $20.00": the count against what was expected. */
export function differenceText(cents: number): string {
  if (cents === 0) return t.balanced;
  return cents < 0 ? t.short(formatMXN(-cents)) : t.over(formatMXN(cents));
}

export const differenceColor = (cents: number) => (cents === 0 ? 'teal' : cents < 0 ? 'red' : 'orange');

/**
 * The receptionist's own cash drawer: opened with the float, the cash sales
 * and refunds of the shift line by line (a card on the terminal listed beside
 * them, never counted as cash), closed with the count. Opening and closing
 * happen on the server (the shift is the studio's money record); a sale made
 * offline goes into the drawer when it reaches the server, so the close waits
 * until nothing is left to send.
 */
export function CashDrawer() {
  const current = api.cashShifts.current.useQuery({}, { retry: false, refetchInterval: 15_000 });
  const [lastClosed, setLastClosed] = useState<CashShiftOutput | null>(null);
  if (current.isPending) return <Loader size="sm" />;
  if (current.error) {
    return (
      <Alert color="gray" icon={<IconCash size={18} />} data-testid="cash-drawer-offline">
        {t.offline}
      </Alert>
    );
  }
  const shift = current.data.cash_shift;
  return (
    <Stack gap="md" data-testid="cash-drawer">
      {lastClosed && !shift && lastClosed.difference !== null && lastClosed.closed_at && (
        <Alert color={differenceColor(toCents(lastClosed.difference))} data-testid="cash-drawer-last">
          {t.lastClosed(differenceText(toCents(lastClosed.difference)), timeOf(lastClosed.closed_at))}
        </Alert>
      )}
      {shift ? <OpenShift shift={shift} onClosed={setLastClosed} /> : <OpenForm />}
    </Stack>
  );
}

function OpenForm() {
  const utils = api.useUtils();
  const [float, setFloat] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const open = api.cashShifts.open.useMutation();
  const submit = async () => {
    const checked = checkedAmount('el fondo inicial', float);
    if ('problem' in checked) return setProblem(checked.problem);
    setProblem(null);
    try {
      await open.mutateAsync({ opening_float: checked.amount });
      await utils.cashShifts.current.invalidate();
      notifications.show({ color: 'teal', message: t.opened });
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  return (
    <Card withBorder data-testid="cash-drawer-closed">
      <Stack gap="sm">
        <Group gap="xs">
          <IconLock size={20} />
          <Title order={4}>{t.closedTitle}</Title>
        </Group>
        <Text size="sm" c="dimmed">
          {t.closedHint}
        </Text>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Group align="flex-start" gap="sm">
            <TextInput
              label={t.openingFloat}
              description={t.openingFloatHint}
              leftSection="$"
              inputMode="decimal"
              value={float}
              onChange={(e) => {
                setFloat(e.currentTarget.value);
                setProblem(null);
              }}
              error={problem}
              w={260}
              data-autofocus
            />
            <Button type="submit" mt={{ base: 0, xs: 46 }} leftSection={<IconCash size={16} />} loading={open.isPending}>
              {t.open}
            </Button>
          </Group>
        </form>
      </Stack>
    </Card>
  );
}

function Figure({ label, value, hint, big, testId }: { label: string; value: string; hint?: string; big?: boolean; testId?: string }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={big ? 700 : 600} size={big ? 'xl' : 'md'} data-testid={testId}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </div>
  );
}

function OpenShift({ shift, onClosed }: { shift: CashShiftOutput; onClosed: (shift: CashShiftOutput) => void }) {
  const [closing, setClosing] = useState(false);
  return (
    <Card withBorder data-testid="cash-drawer-open">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Group gap="xs">
              <Title order={4}>{t.openTitle}</Title>
              <Badge color="teal" variant="light">
                {t.stillOpen}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {t.openSince(timeOf(shift.opened_at), money(shift.opening_float))}
            </Text>
          </div>
          <Button color="dark" onClick={() => setClosing(true)}>
            {t.close}
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Figure label={t.cashSales} value={`${money(shift.cash_sales.total)} (${shift.cash_sales.count})`} />
          <Figure label={t.cashRefunds} value={`${shift.cash_refunds.count ? '−' : ''}${money(shift.cash_refunds.total)} (${shift.cash_refunds.count})`} />
          <Figure label={t.expected} value={money(shift.expected_cash)} big testId="drawer-expected" />
          <Figure label={t.otherSales} value={`${money(shift.other_sales.total)} (${shift.other_sales.count})`} hint={t.otherSalesHint} />
        </SimpleGrid>
        <Title order={5}>{t.linesTitle}</Title>
        <ShiftLines shift={shift} />
      </Stack>
      {closing && <CloseModal shift={shift} onClose={() => setClosing(false)} onClosed={onClosed} />}
    </Card>
  );
}

export function ShiftLines({ shift }: { shift: CashShiftOutput }) {
  if (shift.lines.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t.noLines}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped data-testid="drawer-lines">
        <Table.Tbody>
          {shift.lines.map((l) => (
            <Table.Tr key={`${l.kind}-${l.purchase_id ?? `p${l.product_sale_id}`}`} c={l.in_drawer ? undefined : 'dimmed'}>
              <Table.Td>{timeOf(l.at)}</Table.Td>
              <Table.Td>{t.lineKinds[l.kind]}</Table.Td>
              <Table.Td>{l.customer}</Table.Td>
              <Table.Td>{l.title}</Table.Td>
              <Table.Td>{l.terminal ? t.terminalText(t.methods[l.method] ?? l.method, l.terminal.last4, l.terminal.authorization) : (t.methods[l.method] ?? l.method)}</Table.Td>
              <Table.Td ta="right">{l.kind === 'sale' ? money(l.amount) : `−${money(l.amount)}`}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The count, the difference as it is typed, and why when it does not balance; `title` names whose drawer for an owner. */
export function CloseModal({ shift, onClose, onClosed, title }: { shift: CashShiftOutput; onClose: () => void; onClosed: (shift: CashShiftOutput) => void; title?: string }) {
  const utils = api.useUtils();
  const pending = useDeskStatus()?.pending ?? 0;
  const [counted, setCounted] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<{ counted?: string; note?: string; other?: string }>({});
  const close = api.cashShifts.close.useMutation();
  const parsed = drawerAmount('el efectivo contado').safeParse(counted);
  const difference = parsed.success ? drawerDifferenceCents(parsed.data, shift.expected_cash) : null;
  const submit = async () => {
    if (!parsed.success || difference === null) return setProblem({ counted: parsed.error?.issues[0]?.message ?? '' });
    const why = cashShiftNote.safeParse(note);
    if (!why.success) return setProblem({ note: why.error.issues[0]?.message ?? '' });
    if (drawerNoteMissing(difference, why.data)) return setProblem({ note: domainErrors['cash-shift/note-required'].message });
    setProblem({});
    try {
      const { cash_shift: closed } = await close.mutateAsync({ id: shift.cash_shift_id, counted_cash: parsed.data, note: why.data || null });
      await Promise.all([utils.cashShifts.current.invalidate(), utils.cashShifts.list.invalidate()]);
      notifications.show({ color: 'teal', message: t.closed(money(closed.counted_cash ?? parsed.data)) });
      onClosed(closed);
      onClose();
    } catch (e) {
      setProblem({ other: errorText(e) });
    }
  };
  return (
    <Modal opened onClose={onClose} title={title ?? t.closeTitle} data-testid="close-drawer">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          {pending > 0 && (
            <Alert color="orange" data-testid="close-drawer-pending">
              {t.pendingFirst(pending)}
            </Alert>
          )}
          <Group justify="space-between">
            <Text>{t.expected}</Text>
            <Text fw={700}>{money(shift.expected_cash)}</Text>
          </Group>
          <TextInput
            label={t.counted}
            description={t.countedHint}
            leftSection="$"
            inputMode="decimal"
            value={counted}
            onChange={(e) => {
              setCounted(e.currentTarget.value);
              setProblem({});
            }}
            error={problem.counted}
            data-autofocus
          />
          {difference !== null && (
            <Badge size="lg" color={differenceColor(difference)} variant="light" data-testid="drawer-difference">
              {differenceText(difference)}
            </Badge>
          )}
          {difference !== null && difference !== 0 && (
            <Textarea label={t.note} placeholder={t.notePlaceholder} value={note} onChange={(e) => {
                setNote(e.currentTarget.value);
                setProblem({});
              }} error={problem.note} autosize minRows={2} />
          )}
          {problem.other && <Alert color="red">{problem.other}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t.cancel}
            </Button>
            <Button type="submit" color="dark" loading={close.isPending} disabled={pending > 0}>
              {t.close}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
