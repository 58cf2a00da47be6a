import { Alert, Button, Checkbox, Group, Modal, ScrollArea, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { useEffect, useState } from 'react';
import { errorText } from '../format.ts';
import { api } from '../admin/api.ts';
import { trpc, type DeskOutputs } from '../trpc.ts';

const t = texts.deskShift;
type Warnings = DeskOutputs['customers']['warnings'];

/** The page's HTML as plain paragraphs: staff read it aloud or turn the screen; no markup of the page runs on the desk. */
export function plainText(html: string | null): string[] {
  if (!html) return [t.noContent];
  const text = html
    .replace(/<(br|\/p|\/div|\/li|\/h\d)\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length ? lines : [t.noContent];
}

/**
 * What to look twice at before booking or checking in this customer
 * (required documents not accepted, an incomplete profile), and the button to
 * collect the acceptance at the counter. Renders nothing when all is in order.
 */
export function CounterWarnings({ customerId, customerName, compact = false }: { customerId: number; customerName: string; compact?: boolean }) {
  const warnings = trpc.customers.warnings.useQuery({ customer_id: customerId });
  const session = trpc.session.get.useQuery();
  const isAdmin = session.data?.user?.role === 'admin';
  const [open, setOpen] = useState(false);
  const [lifting, setLifting] = useState(false);
  const w = warnings.data;
  if (!w || (!w.pendingDocuments.length && !w.missingProfile.length && !w.penalty)) return null;
  return (
    <>
      {w.penalty && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="counter-penalty">
          <Stack gap={6}>
            <Text size="sm">{w.penalty}</Text>
            {/* Lifting a penalty is an administrator's, with a reason (decision 037). */}
            {!compact && isAdmin && w.penaltyId !== null && (
              <div>
                <Button size="xs" color="red" variant="light" onClick={() => setLifting(true)}>
                  {t.liftPenalty}
                </Button>
              </div>
            )}
          </Stack>
        </Alert>
      )}
      {lifting && w.penaltyId !== null && <LiftPenaltyModal penaltyId={w.penaltyId} customerName={customerName} onClose={() => setLifting(false)} />}
      {(w.pendingDocuments.length > 0 || w.missingProfile.length > 0) && (
      <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title={compact ? undefined : (w.title ?? undefined)} data-testid="counter-warnings">
        <Stack gap={6}>
          {w.pendingDocuments.length > 0 && <Text size="sm">{t.warningDocumentsPending(w.pendingDocuments.map((d) => d.title).join(', '))}</Text>}
          {w.missingProfile.length > 0 && <Text size="sm">{t.warningProfileIncomplete(w.missingProfile.map((f) => t.profileFieldNames[f]).join(', '))}</Text>}
          {w.pendingDocuments.length > 0 && (
            <div>
              <Button size="xs" color="yellow" variant="filled" onClick={() => setOpen(true)}>
                {t.collectAcceptance}
              </Button>
            </div>
          )}
        </Stack>
      </Alert>
      )}
      <AcceptDocumentsModal opened={open} onClose={() => setOpen(false)} customerId={customerId} customerName={customerName} documents={w.pendingDocuments} />
    </>
  );
}

/** An administrator lifts the active penalty, with the reason Actividad keeps (on the server: it needs the connection). */
function LiftPenaltyModal({ penaltyId, customerName, onClose }: { penaltyId: number; customerName: string; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const lift = api.penalties.lift.useMutation();
  const submit = async () => {
    try {
      await lift.mutateAsync({ id: penaltyId, reason });
      notifications.show({ color: 'teal', message: t.liftPenaltyDone });
      await utils.customers.invalidate();
      onClose();
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  return (
    <Modal opened onClose={onClose} title={t.liftPenaltyTitle(customerName)} data-testid="lift-penalty">
      <Stack>
        <Text size="sm" c="dimmed">
          {t.liftPenaltyHint}
        </Text>
        <Textarea
          label={t.liftPenaltyReason}
          placeholder={t.liftPenaltyReasonPlaceholder}
          autosize
          minRows={2}
          maxLength={300}
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setProblem(null);
          }}
          data-autofocus
        />
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.liftPenaltyKeep}
          </Button>
          <Button color="red" onClick={() => void submit()} loading={lift.isPending}>
            {t.liftPenalty}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function AcceptDocumentsModal({
  opened,
  onClose,
  customerId,
  customerName,
  documents,
}: {
  opened: boolean;
  onClose: () => void;
  customerId: number;
  customerName: string;
  documents: Warnings['pendingDocuments'];
}) {
  const [checked, setChecked] = useState<number[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const accept = trpc.actions.acceptDocuments.useMutation();
  useEffect(() => {
    if (opened) {
      setChecked([]);
      setProblem(null);
    }
  }, [opened]);
  const submit = async () => {
    if (!checked.length) return setProblem(t.pickDocument);
    try {
      await accept.mutateAsync({
        customer_id: customerId,
        page_ids: checked,
        versions_read: documents.filter((d) => checked.includes(d.page_id)).map((d) => ({ page_id: d.page_id, version: d.version })),
      });
      notifications.show({ color: 'teal', message: t.acceptDone });
      onClose();
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t.acceptTitle(customerName)} size="lg" data-testid="accept-documents">
      <Stack>
        <Text size="sm" c="dimmed">
          {t.acceptHint}
        </Text>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        {documents.map((d) => (
          <Stack key={d.page_id} gap="xs">
            <Title order={4}>{d.title}</Title>
            <DocumentText content={d.content} />
            <Checkbox
              label={t.acceptCheckbox(d.title)}
              checked={checked.includes(d.page_id)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setChecked((c) => (on ? [...c, d.page_id] : c.filter((id) => id !== d.page_id)));
                setProblem(null);
              }}
            />
          </Stack>
        ))}
        <Button onClick={() => void submit()} loading={accept.isPending}>
          {t.acceptButton}
        </Button>
      </Stack>
    </Modal>
  );
}

/** A document's text as plain paragraphs in a scrolling box: staff read it, or turn the screen, to the customer. */
export function DocumentText({ content, maxHeight = 220 }: { content: string | null; maxHeight?: number }) {
  return (
    <ScrollArea.Autosize mah={maxHeight} type="auto" offsetScrollbars>
      {plainText(content).map((line, i) => (
        <Text key={i} size="sm" mb={6}>
          {line}
        </Text>
      ))}
    </ScrollArea.Autosize>
  );
}
