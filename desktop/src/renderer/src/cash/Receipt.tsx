import { Button, Group, Paper, Stack, Title } from '@mantine/core';
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

// The receipt's look, on screen and on paper; printed, it is alone at the 80 mm roll's width, whatever the window shows.
const receiptCss = `
.receipt { font: 12px/1.4 'DejaVu Sans Mono', 'Courier New', monospace; }
.receipt .row { display: flex; justify-content: space-between; gap: 2mm; }
.receipt .center { text-align: center; }
.receipt hr { border: 0; border-top: 1px dashed currentColor; margin: 2mm 0; }
.receipt .total { font-weight: 700; font-size: 1.1em; }
@media screen { #receipt-print { display: none; } }
@media print {
  @page { size: 80mm auto; margin: 3mm; }
  body > *:not(#receipt-print) { display: none !important; }
  #receipt-print { display: block; width: 74mm; font-size: 11px; color: #000; }
}`;

function ReceiptBody({ receipt }: { receipt: ReceiptData }) {
  return (
    <div className="receipt">
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
        <div className="row total" data-testid="receipt-change">
          <span>{t.receiptChange}</span>
          <span>{money(receipt.change)}</span>
        </div>
      )}
      <hr />
      <div>{`${t.receiptSeller}: ${receipt.seller}`}</div>
      <div className="center">{t.receiptThanks}</div>
      <div className="center">{t.receiptNotInvoice}</div>
    </div>
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
      <style>{receiptCss}</style>
      <Paper withBorder p="sm" maw={320} mx="auto" w="100%" data-testid="receipt-preview">
        <ReceiptBody receipt={receipt} />
      </Paper>
      <Group justify="flex-end">
        <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
          {t.printReceipt}
        </Button>
        <Button onClick={onDone}>{t.done}</Button>
      </Group>
      {createPortal(
        <div id="receipt-print" data-testid="receipt-print">
          <ReceiptBody receipt={receipt} />
        </div>,
        document.body,
      )}
    </Stack>
  );
}
