import { Badge, Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { cfdiUses, mxTexts, studioCfdiUseCodes, taxRegimes, type PurchaseCfdiOutput } from '@estudio/core';
import { useState } from 'react';
import { api, type ApiOutputs } from '../admin/api.ts';
import { errorText } from '../format.ts';

const t = mxTexts.invoice;
type ForCustomer = ApiOutputs['cfdi']['forCustomer'];

const label: Record<PurchaseCfdiOutput['state'], string> = {
  none: t.stateNone,
  pending: t.statePending,
  stamped: t.stateStamped,
  failed: t.stateFailed,
  cancelling: t.stateCancelling,
  cancelled: t.stateCancelled,
  global: t.stateGlobal,
};
const color: Record<PurchaseCfdiOutput['state'], string> = { none: 'gray', pending: 'yellow', stamped: 'teal', failed: 'red', cancelling: 'orange', cancelled: 'gray', global: 'gray' };

/** A customer's invoices at the desk (decision 084), read from the server every few seconds like Actividad. */
export function useCustomerInvoices(customerId: number) {
  return api.cfdi.forCustomer.useQuery({ id: customerId }, { refetchInterval: 10_000, refetchOnWindowFocus: true });
}

/**
 * A purchase's invoice state on the customer's card, and 'Facturar' while it
 * can be issued: with the customer's own tax profile, or one typed at the
 * counter (checked by the server as the SAT would, each refusal in Spanish).
 */
export function PurchaseInvoice({ purchaseId, invoices }: { purchaseId: number; invoices: ForCustomer | undefined }) {
  const [open, setOpen] = useState(false);
  const cfdi = invoices?.purchases.find((p) => p.purchase_id === purchaseId)?.cfdi;
  if (!cfdi) return null;
  return (
    <Group gap={4} wrap="nowrap" data-testid={`desk-invoice-${purchaseId}`}>
      {cfdi.state !== 'none' && (
        <Badge variant="light" color={color[cfdi.state]} tt="none" title={cfdi.failure_reason ?? (cfdi.waiting_for_pac ? t.statePendingPac : undefined)}>
          {label[cfdi.state]}
          {cfdi.waiting_for_pac ? ' · sin PAC' : ''}
        </Badge>
      )}
      {cfdi.can_request && (
        <Button size="compact-xs" variant="light" onClick={() => setOpen(true)} data-testid={`desk-issue-${purchaseId}`}>
          {t.issueAtDesk}
        </Button>
      )}
      {open && <IssueModal purchaseId={purchaseId} invoices={invoices} onClose={() => setOpen(false)} />}
    </Group>
  );
}

function IssueModal({ purchaseId, invoices, onClose }: { purchaseId: number; invoices: ForCustomer | undefined; onClose: () => void }) {
  const own = invoices?.tax_profile ?? null;
  const [typing, setTyping] = useState(own === null);
  const [draft, setDraft] = useState({ rfc: '', legal_name: '', tax_regime: '', cfdi_use: 'G03', postcode: '', email: '' });
  const [fieldError, setFieldError] = useState<{ field: string | null; message: string } | null>(null);
  const utils = api.useUtils();
  const issue = api.cfdi.deskIssue.useMutation({
    onSuccess: () => {
      void utils.cfdi.forCustomer.invalidate();
      notifications.show({ color: 'teal', message: t.requestedToast });
      onClose();
    },
    onError: (error) => {
      const field = (error.data as { field?: string } | undefined)?.field ?? null;
      setFieldError({ field, message: errorText(error) });
    },
  });
  const set = (key: keyof typeof draft, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setFieldError(null);
  };
  const err = (key: string) => (fieldError?.field === key ? fieldError.message : undefined);
  return (
    <Modal opened onClose={onClose} title={t.issueAtDesk} centered size="lg">
      <Stack gap="sm">
        {own && !typing ? (
          <>
            <Text>{t.confirmText(own.legal_name, own.rfc)}</Text>
            <Button variant="subtle" size="compact-sm" onClick={() => setTyping(true)} w="fit-content">
              Usar otros datos fiscales
            </Button>
          </>
        ) : (
          <SimpleGrid cols={2} spacing="sm">
            <TextInput label={mxTexts.taxProfile.rfc} value={draft.rfc} onChange={(e) => set('rfc', e.currentTarget.value.toUpperCase())} error={err('rfc')} data-testid="desk-rfc" />
            <TextInput label={mxTexts.taxProfile.postcode} value={draft.postcode} onChange={(e) => set('postcode', e.currentTarget.value)} error={err('postcode')} />
            <TextInput label={mxTexts.taxProfile.legalName} value={draft.legal_name} onChange={(e) => set('legal_name', e.currentTarget.value)} error={err('legal_name')} style={{ gridColumn: '1 / -1' }} />
            <Select label={mxTexts.taxProfile.regime} data={taxRegimes.map((r) => ({ value: r.code, label: `${r.code} · ${r.label}` }))} value={draft.tax_regime || null} onChange={(v) => set('tax_regime', v ?? '')} error={err('tax_regime')} searchable />
            <Select
              label={mxTexts.taxProfile.use}
              data={cfdiUses.filter((u) => (studioCfdiUseCodes as readonly string[]).includes(u.code)).map((u) => ({ value: u.code, label: `${u.code} · ${u.label}` }))}
              value={draft.cfdi_use}
              onChange={(v) => set('cfdi_use', v ?? '')}
              error={err('cfdi_use')}
            />
            <TextInput label={mxTexts.taxProfile.email} value={draft.email} onChange={(e) => set('email', e.currentTarget.value)} error={err('email')} style={{ gridColumn: '1 / -1' }} />
          </SimpleGrid>
        )}
        {fieldError && !fieldError.field && <Text c="red" size="sm" role="alert">{fieldError.message}</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancelar
          </Button>
          <Button
            loading={issue.isPending}
            data-testid="desk-issue-confirm"
            onClick={() => issue.mutate({ purchase_id: purchaseId, ...(typing ? { tax_profile: { ...draft, email: draft.email.trim() || null } } : {}) })}
          >
            {t.issueAtDesk}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
