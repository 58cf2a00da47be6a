import type { ReactNode } from 'react';
import { ActionIcon, Alert, Anchor, CopyButton, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { IconBuildingBank, IconBuildingStore, IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { code128Modules, formatClabe, formatDateTime, formatMXN, mxTexts, texts, toCents, type z } from '@estudio/core';
import type { paymentInstructionsOutput } from '@estudio/core';

const t = mxTexts.thanks;
type Instructions = z.infer<typeof paymentInstructionsOutput>;
const mxn = (amount: string) => texts.thanks.mxn(formatMXN(toCents(amount)));

/** The reference as a Code 128 barcode the OXXO cashier scans from the phone (core's encoder; 10 modules of quiet zone each side). */
export function Barcode({ value, height = 64 }: { value: string; height?: number }) {
  const modules = code128Modules(value);
  if (!modules) return null;
  const width = modules.reduce((n, w) => n + w, 0) + 20;
  let x = 10;
  const bars: ReactNode[] = [];
  modules.forEach((w, i) => {
    if (i % 2 === 0) bars.push(<rect key={i} x={x} y={0} width={w} height={height} />);
    x += w;
  });
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width="100%" style={{ maxWidth: 420, display: 'block', background: '#fff' }} role="img" aria-label={`${t.oxxoReference} ${value}`} preserveAspectRatio="none" data-testid="oxxo-barcode">
      {bars}
    </svg>
  );
}

function Fact({ label, value, copy, mono }: { label: string; value: string; copy?: string; mono?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Text size="sm" fw={600} ff={mono ? 'monospace' : undefined} style={{ whiteSpace: mono ? 'nowrap' : undefined }}>
          {value}
        </Text>
        {copy && (
          <CopyButton value={copy}>
            {({ copied, copy: doCopy }) => (
              <Tooltip label={copied ? 'Copiado' : `Copiar ${label}`} withArrow>
                <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={doCopy} aria-label={`Copiar ${label}`}>
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        )}
      </Group>
    </Stack>
  );
}

/**
 * What to pay with (decision 080): the OXXO voucher (reference and its
 * barcode, amount, expiry, Stripe's printable voucher) or the SPEI transfer
 * to the customer's own CLABE (bank, CLABE, reference, amount, and what
 * arrived so far); on a paid transfer, the money over that stays hers.
 */
export function PaymentInstructions({ instructions, pending, tz }: { instructions: Instructions; pending: boolean; tz: string }) {
  const i = instructions;
  if (!pending) {
    return toCents(i.overpaid) > 0 ? (
      <Alert variant="light" color="blue" icon={<IconBuildingBank size={18} />}>
        {t.speiOverpaid(mxn(i.overpaid))}
      </Alert>
    ) : null;
  }
  if (i.channel === 'oxxo') {
    return (
      <Alert variant="light" color="yellow" icon={<IconBuildingStore size={18} />} title={t.oxxoHeading} data-testid="oxxo-voucher">
        <Stack gap="sm">
          {i.reference && <Barcode value={i.reference} />}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs">
            {i.reference && <Fact label={t.oxxoReference} value={i.reference} copy={i.reference} mono />}
            <Fact label={t.oxxoAmount} value={mxn(i.amount)} />
            {i.expires_at && <Fact label={t.oxxoExpires} value={formatDateTime(i.expires_at, tz)} />}
          </SimpleGrid>
          <Text size="sm">{t.oxxoSteps}</Text>
          <Text size="sm">{t.oxxoHeld}</Text>
          {i.hosted_url && (
            <Anchor href={i.hosted_url} target="_blank" rel="noopener noreferrer" size="sm">
              {t.oxxoPrint} <IconExternalLink size={12} />
            </Anchor>
          )}
        </Stack>
      </Alert>
    );
  }
  const short = toCents(i.received) > 0 && toCents(i.remaining) > 0;
  return (
    <Alert variant="light" color="blue" icon={<IconBuildingBank size={18} />} title={t.speiHeading} data-testid="spei-details">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs">
          {i.bank_name && <Fact label={t.speiBank} value={i.bank_name} />}
          {i.clabe && <Fact label={t.speiClabe} value={formatClabe(i.clabe)} copy={i.clabe} mono />}
          {i.reference && <Fact label={t.speiReference} value={i.reference} copy={i.reference} mono />}
          <Fact label={t.speiAmount} value={mxn(short ? i.remaining : i.amount)} copy={(toCents(short ? i.remaining : i.amount) / 100).toFixed(2)} />
        </SimpleGrid>
        {short && <Text size="sm" fw={600}>{t.speiReceived(mxn(i.received), mxn(i.remaining))}</Text>}
        <Text size="sm">{t.speiSteps}</Text>
      </Stack>
    </Alert>
  );
}
