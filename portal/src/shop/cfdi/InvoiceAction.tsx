import { useState } from 'react';
import { Anchor, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileInvoice } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDate, mxTexts, texts, type PurchaseCfdiOutput } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorMessage } from '../../api/errors.ts';
import { useStudioTimeZone } from '../../booking/time.ts';
import { showError, showSuccess } from '../../ui/alerts.ts';

const t = mxTexts.invoice;

const stateText: Record<PurchaseCfdiOutput['state'], string | null> = {
  none: null,
  pending: t.statePending,
  stamped: t.stateStamped,
  failed: t.stateFailed,
  cancelling: t.stateCancelling,
  cancelled: t.stateCancelled,
  global: t.stateGlobal,
};
const stateColor: Record<PurchaseCfdiOutput['state'], string> = {
  none: 'gray',
  pending: 'yellow',
  stamped: 'teal',
  failed: 'red',
  cancelling: 'orange',
  cancelled: 'gray',
  global: 'gray',
};

/** A stamped document's PDF or XML, downloaded from the server as the file it is. */
export function useCfdiDownload() {
  const utils = trpc.useUtils();
  return async (id: number, format: 'pdf' | 'xml') => {
    try {
      const file = await utils.client.cfdi.file.query({ id, format });
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: file.content_type }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      showError(errorMessage(error));
    }
  };
}

/**
 * A purchase's invoice (decision 084) on Mis Compras and the order page: its
 * state, 'Solicitar factura' while it can be asked for (a confirmation naming
 * who it is issued to, or the way to the tax profile when there is none), and
 * the PDF and XML once stamped.
 */
export function InvoiceAction({ purchaseId, cfdi, compact = false }: { purchaseId: number; cfdi: PurchaseCfdiOutput; compact?: boolean }) {
  const tz = useStudioTimeZone();
  const utils = trpc.useUtils();
  const [asking, setAsking] = useState(false);
  const profile = trpc.cfdi.taxProfile.useQuery(undefined, { enabled: asking, staleTime: 60_000 });
  const download = useCfdiDownload();
  const request = trpc.cfdi.request.useMutation({
    onSuccess: () => {
      setAsking(false);
      showSuccess(t.requestedToast);
      void utils.purchases.invalidate();
    },
    onError: (error) => showError(errorMessage(error)),
  });
  const label = stateText[cfdi.state];
  const mine = profile.data?.tax_profile;
  return (
    <Stack gap={4} data-testid={`invoice-${purchaseId}`}>
      <Group gap="xs" wrap="wrap">
        {label && (
          <Badge variant="light" color={stateColor[cfdi.state]} leftSection={<IconFileInvoice size={12} />} style={{ textTransform: 'none' }}>
            {label}
          </Badge>
        )}
        {cfdi.state === 'stamped' && cfdi.cfdi_id !== null && (
          <Group gap={6}>
            <Anchor component="button" size="sm" onClick={() => void download(cfdi.cfdi_id as number, 'pdf')}>
              <IconDownload size={12} /> {t.downloadPdf}
            </Anchor>
            <Anchor component="button" size="sm" onClick={() => void download(cfdi.cfdi_id as number, 'xml')}>
              <IconDownload size={12} /> {t.downloadXml}
            </Anchor>
          </Group>
        )}
        {cfdi.can_request && (
          <Button size="compact-sm" variant="light" onClick={() => setAsking(true)} leftSection={<IconFileInvoice size={14} />}>
            {cfdi.state === 'failed' ? t.retry : t.request}
          </Button>
        )}
      </Group>
      {!compact && cfdi.waiting_for_pac && <Text size="xs" c="dimmed">{t.statePendingPac}</Text>}
      {!compact && cfdi.state === 'failed' && cfdi.failure_reason && <Text size="xs" c="red">{t.failedReason(cfdi.failure_reason)}</Text>}
      {!compact && cfdi.can_request && cfdi.request_until && <Text size="xs" c="dimmed">{t.windowUntil(formatDate(new Date(new Date(cfdi.request_until).getTime() - 1), tz))}</Text>}
      <Modal opened={asking} onClose={() => setAsking(false)} title={t.confirmTitle} centered>
        {profile.isPending ? null : mine ? (
          <Stack gap="md">
            <Text>{t.confirmText(mine.legal_name, mine.rfc)}</Text>
            {mine.email && <Text size="sm" c="dimmed">{t.sentByEmail(mine.email)}</Text>}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)}>
                {texts.profile.cancel}
              </Button>
              <Button loading={request.isPending} onClick={() => request.mutate({ purchase_id: purchaseId })} data-testid="confirm-invoice">
                {t.confirm}
              </Button>
            </Group>
          </Stack>
        ) : (
          <Stack gap="md">
            <Text>{t.needsProfile}</Text>
            <Button component={Link} to="/mystudio/informacion#datos-fiscales" onClick={() => setAsking(false)}>
              {t.goToProfile}
            </Button>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
