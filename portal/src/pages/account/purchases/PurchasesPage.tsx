import { useState } from 'react';
import { Alert, Anchor, Box, Button, Container, EmptyState, Group, Paper, Skeleton, Stack, Table, Title } from '@mantine/core';
import { IconCreditCard, IconReceipt } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDate, formatMXN, isOn, mxTexts, texts, toCents } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { useStudioTimeZone } from '../../../booking/time.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { PurchaseStatusBadge } from '../../../shop/PurchaseStatusBadge.tsx';
import type { ShopPurchase } from '../../../shop/types.ts';
import { usePageTitle } from '../../../ui/usePageTitle.ts';
import { RecordCard } from '../RecordCard.tsx';
import { CancelSubscriptionModal } from './CancelSubscriptionModal.tsx';
import { InvoiceAction } from '../../../shop/cfdi/InvoiceAction.tsx';

/** Spec: cancelling is offered for active purchases with a subscription. */
const cancellable = (p: ShopPurchase) => p.status === 'active' && Boolean(p.subscription_id);
const folio = (p: ShopPurchase) => `#00${p.purchase_id}`;

/** /mystudio/membresias (Mis Compras): a table on desktop, cards on mobile. */
export default function PurchasesPage() {
  const config = useAppConfig();
  usePageTitle(texts.purchases.heading);
  const tz = useStudioTimeZone();
  const purchases = trpc.purchases.list.useQuery();
  const [cancelling, setCancelling] = useState<ShopPurchase | null>(null);
  const rows = purchases.data?.purchases ?? [];
  const nextCharge = (p: ShopPurchase) => (p.next_charge_date ? formatDate(p.next_charge_date, tz) : '—');

  const actions = (p: ShopPurchase) => (
    <Group gap="xs" wrap="nowrap">
      <Anchor component={Link} to={`/gracias/${p.purchase_id}`} size="sm">
        {texts.purchases.view}
      </Anchor>
      {cancellable(p) && (
        <Button size="compact-sm" variant="light" color="red" onClick={() => setCancelling(p)}>
          {texts.purchases.cancelSubscription}
        </Button>
      )}
    </Group>
  );

  let content: React.ReactNode;
  if (purchases.isError) content = <Alert color="red" variant="light" title={errorMessage(purchases.error)} />;
  else if (!purchases.data) content = <Skeleton h={160} radius="md" />;
  else if (rows.length === 0)
    content = <EmptyState py={40} variant="light" icon={<IconReceipt size={32} stroke={1.5} />} title={texts.purchases.empty} />;
  else
    content = (
      <>
        <Box visibleFrom="sm">
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="sm" striped aria-label={texts.purchases.heading}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{texts.purchases.folio}</Table.Th>
                  <Table.Th>{texts.purchases.package}</Table.Th>
                  <Table.Th>{texts.purchases.total}</Table.Th>
                  <Table.Th>{texts.purchases.date}</Table.Th>
                  <Table.Th>{texts.purchases.status}</Table.Th>
                  <Table.Th>{texts.purchases.nextCharge}</Table.Th>
                  <Table.Th>{mxTexts.invoice.column}</Table.Th>
                  <Table.Th>{texts.purchases.actions}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((p) => (
                  <Table.Tr key={p.purchase_id}>
                    <Table.Td>{folio(p)}</Table.Td>
                    <Table.Td fw={600}>{p.title}</Table.Td>
                    <Table.Td>{formatMXN(toCents(p.total_payment))}</Table.Td>
                    <Table.Td>{formatDate(p.createdAt, tz)}</Table.Td>
                    <Table.Td>
                      <PurchaseStatusBadge status={p.status} cancelledAt={p.cancelledAt} />
                    </Table.Td>
                    <Table.Td>{nextCharge(p)}</Table.Td>
                    <Table.Td>
                      <InvoiceAction purchaseId={p.purchase_id} cfdi={p.cfdi} compact />
                    </Table.Td>
                    <Table.Td>{actions(p)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Box>
        {/* Phones: one card per purchase; the status badge keeps its whole text ('Cancelada 12 ene…' was cut). */}
        <Stack hiddenFrom="sm" gap="sm">
          {rows.map((p) => (
            <RecordCard
              key={p.purchase_id}
              testId="purchase-card"
              title={p.title}
              badge={<PurchaseStatusBadge status={p.status} cancelledAt={p.cancelledAt} />}
              facts={[
                [texts.purchases.total, formatMXN(toCents(p.total_payment))],
                [texts.purchases.date, formatDate(p.createdAt, tz)],
                ...(p.next_charge_date ? [[texts.purchases.nextCharge, nextCharge(p)] as [string, string]] : []),
                [texts.purchases.folio, folio(p)],
              ]}
            >
              <Stack gap="xs">
                <InvoiceAction purchaseId={p.purchase_id} cfdi={p.cfdi} compact />
                {actions(p)}
              </Stack>
            </RecordCard>
          ))}
        </Stack>
      </>
    );

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="center">
          <Title order={1} fz={{ base: 28, sm: 34 }}>
            {texts.purchases.heading}
          </Title>
          {isOn(config.payment_sources_enabled) && (
            <Button component={Link} to="/mystudio/metodos" variant="light" leftSection={<IconCreditCard size={18} />}>
              {texts.purchases.methodsHeading}
            </Button>
          )}
        </Group>
        <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }}>
          {content}
        </Paper>
      </Stack>
      <CancelSubscriptionModal purchase={cancelling} onClose={() => setCancelling(null)} />
    </Container>
  );
}
