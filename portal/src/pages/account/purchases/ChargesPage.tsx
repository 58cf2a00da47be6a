import { Alert, Box, EmptyState, Skeleton, Stack, Table } from '@mantine/core';
import { IconReceipt2 } from '@tabler/icons-react';
import { formatDate, formatMXN, isOn, texts, toCents } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { useStudioTimeZone } from '../../../booking/time.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { PurchaseStatusBadge } from '../../../shop/PurchaseStatusBadge.tsx';
import { NotFound } from '../../NotFound.tsx';
import { AccountPageFrame } from '../AccountPageFrame.tsx';
import { RecordCard } from '../RecordCard.tsx';

/** /mystudio/pagos (Mis Cargos), only when subscriptions_enabled: every charge of the customer's purchases. */
export default function ChargesPage() {
  const config = useAppConfig();
  const tz = useStudioTimeZone();
  const enabled = isOn(config.subscriptions_enabled);
  const invoices = trpc.invoices.list.useQuery(undefined, { enabled });
  if (!enabled) return <NotFound home="/mystudio" fullHeight={false} />;

  const rows = invoices.data?.invoices ?? [];
  type Invoice = (typeof rows)[number];
  const next = (invoice: Invoice) => (invoice.purchase.next_charge_date ? formatDate(invoice.purchase.next_charge_date, tz) : '—');
  let content: React.ReactNode;
  if (invoices.isError) content = <Alert color="red" variant="light" title={errorMessage(invoices.error)} />;
  else if (!invoices.data) content = <Skeleton h={160} radius="md" />;
  else if (rows.length === 0)
    content = <EmptyState py={40} variant="light" icon={<IconReceipt2 size={32} stroke={1.5} />} title={texts.purchases.chargesEmpty} />;
  else
    content = (
      <>
        <Box visibleFrom="sm">
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" striped aria-label={texts.purchases.chargesHeading}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{texts.purchases.folio}</Table.Th>
                  <Table.Th>{texts.purchases.purchase}</Table.Th>
                  <Table.Th>{texts.purchases.package}</Table.Th>
                  <Table.Th>{texts.purchases.total}</Table.Th>
                  <Table.Th>{texts.purchases.date}</Table.Th>
                  <Table.Th>{texts.purchases.next}</Table.Th>
                  <Table.Th>{texts.purchases.status}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((invoice) => (
                  <Table.Tr key={invoice.invoice_id}>
                    <Table.Td>#{invoice.invoice_id}</Table.Td>
                    <Table.Td>#00{invoice.purchase_id}</Table.Td>
                    <Table.Td fw={600}>{invoice.class_package.title}</Table.Td>
                    <Table.Td>{formatMXN(toCents(invoice.total_payment))}</Table.Td>
                    <Table.Td>{formatDate(invoice.createdAt, tz)}</Table.Td>
                    <Table.Td>{next(invoice)}</Table.Td>
                    <Table.Td>
                      <PurchaseStatusBadge status={invoice.status} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Box>
        {/* Phones: one card per charge, the whole amount and date in view (the table cut '$1,350.00'). */}
        <Stack hiddenFrom="sm" gap="sm">
          {rows.map((invoice) => (
            <RecordCard
              key={invoice.invoice_id}
              testId="charge-card"
              title={invoice.class_package.title}
              badge={<PurchaseStatusBadge status={invoice.status} />}
              facts={[
                [texts.purchases.total, formatMXN(toCents(invoice.total_payment))],
                [texts.purchases.date, formatDate(invoice.createdAt, tz)],
                [texts.purchases.next, next(invoice)],
                [texts.purchases.folio, `#${invoice.invoice_id}`],
                [texts.purchases.purchase, `#00${invoice.purchase_id}`],
              ]}
            />
          ))}
        </Stack>
      </>
    );

  return <AccountPageFrame title={texts.purchases.chargesHeading}>{content}</AccountPageFrame>;
}
