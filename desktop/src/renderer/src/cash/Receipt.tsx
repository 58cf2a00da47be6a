import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { createPortal } from 'react-dom';
import { dateTimeOf, money } from '../format.ts';

const t = texts.cashDrawer;

/** What a counter sale's receipt says: the studio, the customer, what was sold, how it was paid and the change. */
export interface ReceiptData {
  studio: { name: string; location: string; email: string; whatsapp: string };
  at: string;
  customer: string;
  seller: string;
  lines: { title: string; amount: string }[];
  total: string;
  method: string;
  tendered: string | null;
  change: string | null;
}

// An 80 mm roll: the receipt alone is printed, at the roll's width, whatever the desk's window shows.
const printCss = `
@media screen { #receipt-print { display: none; } }
@media print {
  @page { size: 80mm auto; margin: 3mm; }
  body > *:not(#receipt-print) { display: none !important; }
  #receipt-print { display: block; width: 74mm; font: 11px/1.35 'DejaVu Sans Mono', 'Courier New', monospace; color: #000; }
  #receipt-print .row { display: flex; justify-content: space-between; gap: 2mm; }
  #receipt-print .center { text-align: center; }
  #receipt-print hr { border: 0; border-top: 1px dashed #000; margin: 2mm 0; }
  #receipt-print .total { font-weight: 700; font-size: 13px; }
}`;

function ReceiptBody({ receipt }: { receipt: ReceiptData }) {
  return (
    <>
      <div className="center">
        <strong>{receipt.studio.name}</strong>
        <div>{receipt.studio.location}</div>
        <div>{[receipt.studio.email, receipt.studio.whatsapp].filter(Boolean).join(' · ')}</div>
      </div>
      <hr />
      <div className="center">{t.receiptTitle}</div>
      <div>{dateTimeOf(receipt.at)}</div>
      <div>{`${t.receiptCustomer}: ${receipt.customer}`}</div>
      <hr />
      {receipt.lines.map((l) => (
        <div className="row" key={l.title}>
          <span>{l.title}</span>
          <span>{money(l.amount)}</span>
        </div>
      ))}
      <hr />
      <div className="row total">
        <span>{t.receiptTotal}</span>
        <span>{money(receipt.total)}</span>
      </div>
      <div className="row">
        <span>{t.receiptMethod}</span>
        <span>{receipt.method}</span>
      </div>
      {receipt.tendered && (
        <div className="row">
          <span>{t.receiptTendered}</span>
          <span>{money(receipt.tendered)}</span>
        </div>
      )}
      {receipt.change && (
        <div className="row">
          <span>{t.receiptChange}</span>
          <span>{money(receipt.change)}</span>
        </div>
      )}
      <hr />
      <div>{`${t.receiptSeller}: ${receipt.seller}`}</div>
      <div className="center">{t.receiptThanks}</div>
      <div className="center">{t.receiptNotInvoice}</div>
    </>
  );
}

/**
 * A sale just recorded: its receipt on screen as it will print, and the button
 * that prints it on the counter's 80 mm printer (the system's print dialog,
 * with the roll's page size).
 */
export function SaleReceipt({ receipt, onDone }: { receipt: ReceiptData; onDone: () => void }) {
  return (
    <Stack data-testid="sale-receipt">
      <Title order={4}>{t.saleDone}</Title>
      <Paper withBorder p="sm" maw={320} mx="auto" w="100%" ff="monospace" fz="xs" data-testid="receipt-preview">
        <Stack gap={4}>
          <Text ta="center" fw={700} size="sm">
            {receipt.studio.name}
          </Text>
          <Text ta="center" size="xs">
            {receipt.studio.location}
          </Text>
          <Text ta="center" size="xs" c="dimmed">
            {t.receiptTitle} · {dateTimeOf(receipt.at)}
          </Text>
          <Text size="xs">{`${t.receiptCustomer}: ${receipt.customer}`}</Text>
          {receipt.lines.map((l) => (
            <Group key={l.title} justify="space-between" wrap="nowrap">
              <Text size="xs">{l.title}</Text>
              <Text size="xs">{money(l.amount)}</Text>
            </Group>
          ))}
          <Group justify="space-between">
            <Text fw={700}>{t.receiptTotal}</Text>
            <Text fw={700}>{money(receipt.total)}</Text>
          </Group>
          <Group justify="space-between">
            <Text size="xs">{t.receiptMethod}</Text>
            <Text size="xs">{receipt.method}</Text>
          </Group>
          {receipt.tendered && (
            <Group justify="space-between">
              <Text size="xs">{t.receiptTendered}</Text>
              <Text size="xs">{money(receipt.tendered)}</Text>
            </Group>
          )}
          {receipt.change && (
            <Group justify="space-between" data-testid="receipt-change">
              <Text fw={700}>{t.receiptChange}</Text>
              <Text fw={700}>{money(receipt.change)}</Text>
            </Group>
          )}
          <Text size="xs" ta="center" c="dimmed">
            {t.receiptNotInvoice}
          </Text>
        </Stack>
      </Paper>
      <Group justify="flex-end">
        <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
          {t.printReceipt}
        </Button>
        <Button onClick={onDone}>{t.done}</Button>
      </Group>
      {createPortal(
        <div id="receipt-print" data-testid="receipt-print">
          <style>{printCss}</style>
          <ReceiptBody receipt={receipt} />
        </div>,
        document.body,
      )}
    </Stack>
  );
}
