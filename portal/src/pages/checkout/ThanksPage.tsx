import type { ReactNode } from 'react';
import { ActionIcon, Alert, Box, Button, Container, CopyButton, Divider, Group, Image, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { IconBuildingBank, IconCheck, IconCircleCheck, IconClockHour4, IconCopy } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router';
import {
  cardBrandLabel,
  renewalPeriodText,
  bankTransferReference,
  chargePlan,
  classesPathAfterPurchase,
  formatClabe,
  formatDate,
  formatDateTime,
  formatMXN,
  mxTexts,
  texts,
  toCents,
  type AppConfigMap,
} from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorFacts } from '../../api/errors.ts';
import { useStudioTimeZone } from '../../booking/time.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { signInPath } from '../../session/return-to.ts';
import { PurchaseStatusBadge } from '../../shop/PurchaseStatusBadge.tsx';
import type { ShopPurchase } from '../../shop/types.ts';
import { LoadingScreen } from '../../ui/LoadingScreen.tsx';
import { NotFound } from '../NotFound.tsx';
import { CheckoutHeader } from './CheckoutHeader.tsx';
import { PaymentInstructions } from '../../shop/PaymentInstructions.tsx';
import { InvoiceAction } from '../../shop/cfdi/InvoiceAction.tsx';

function Line({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md" align="flex-start">
      <Text c="dimmed" size="sm">
        {label}
      </Text>
      <Text fw={strong ? 800 : 500} size={strong ? 'lg' : 'sm'} ta="right" component="div">
        {children}
      </Text>
    </Group>
  );
}

const mxn = (amount: string) => texts.thanks.mxn(formatMXN(toCents(amount)));

/**
 * What was charged and when the first charge comes, by core's chargePlan (the rule the checkout showed before
 * paying), counted from the purchase's creation; a free trial only while nothing was charged.
 */
function firstChargeOf(p: ShopPurchase) {
  const plan = chargePlan(
    { price: p.class_package.price, sale_price: p.class_package.sale_price, is_subscription: p.class_package.is_subscription, free_trial_length: p.free_trial_length, free_trial_period: p.free_trial_period },
    { startedAt: p.createdAt },
  );
  return plan.firstCharge && toCents(p.total_payment) === 0 ? plan.firstCharge : null;
}

/** Where to send a transfer: the studio's bank settings (decision 029), the order number as the reference. */
function BankTransfer({ purchaseId, config }: { purchaseId: number; config: AppConfigMap }) {
  if (!config.bank_clabe) return <Text size="sm">{texts.thanks.cashBankMissing}</Text>;
  const rows: [string, string, string?][] = [
    ...(config.bank_name ? [[texts.thanks.bankName, config.bank_name] as [string, string]] : []),
    [texts.thanks.bankClabe, formatClabe(config.bank_clabe), config.bank_clabe],
    ...(config.bank_beneficiary ? [[texts.thanks.bankBeneficiary, config.bank_beneficiary] as [string, string]] : []),
    [texts.thanks.bankReference, bankTransferReference(purchaseId), bankTransferReference(purchaseId)],
  ];
  return (
    <Stack gap="xs">
      <Text size="sm">{texts.thanks.cashBankTransfer}</Text>
      {/* Label over value: an 18-digit CLABE stays on one line on a phone. */}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs" data-testid="bank-transfer">
        {rows.map(([label, value, copy]) => (
          <Stack key={label} gap={0}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Group gap={4} wrap="nowrap">
              <Text size="sm" fw={600} ff={copy ? 'monospace' : undefined} style={{ whiteSpace: copy ? 'nowrap' : undefined }}>
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
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function Receipt({ purchase }: { purchase: ShopPurchase }) {
  const tz = useStudioTimeZone();
  const pkg = purchase.class_package;
  const firstCharge = firstChargeOf(purchase);
  const cash = purchase.provider === 'cash' || purchase.payment_method?.name === texts.checkout.cash;
  const config = useAppConfig();
  const days = purchase.expiration_days;
  const pending = purchase.status === 'pending';
  // The receipt goes by e-mail only when the studio can send it (decision 079); until the answer comes, nothing is claimed.
  const channels = trpc.messaging.channels.useQuery(undefined, { staleTime: 60_000 });
  const sentTo = channels.data?.email && purchase.customer.email ? texts.thanks.thankYouText(purchase.customer.email) : channels.data ? texts.thanks.thankYouNoEmailText : null;

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} maw={640} mx="auto">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="center" data-testid="thank-you">
          <ThemeIcon size={44} radius="xl" variant="light" color={pending ? 'yellow' : 'teal'}>
            {pending ? <IconClockHour4 size={26} /> : <IconCircleCheck size={26} />}
          </ThemeIcon>
          <Stack gap={0}>
            <Title order={1} fz={{ base: 22, sm: 26 }}>
              {pending ? texts.thanks.thankYouPending : texts.thanks.thankYou}
            </Title>
            <Text size="sm" c="dimmed">
              {pending ? texts.thanks.thankYouPendingText : sentTo}
            </Text>
          </Stack>
        </Group>
        <Divider />
        <Group justify="space-between" align="center">
          <Title order={2} fz={{ base: 22, sm: 26 }}>
            {texts.thanks.order(purchase.purchase_id)}
          </Title>
          <PurchaseStatusBadge status={purchase.status} cancelledAt={purchase.cancelledAt} />
        </Group>
        {pkg.receipt_file?.src && <Image src={pkg.receipt_file.src} alt="" radius="md" mah={280} fit="contain" />}
        <Stack gap={2}>
          <Title order={3} fz="xl">
            {purchase.title}
          </Title>
          <Text c="dimmed" size="sm">
            {formatDateTime(purchase.createdAt, tz)}
          </Text>
        </Stack>
        <Divider />
        {firstCharge ? (
          <Stack gap="xs">
            <Line label={texts.thanks.totalPaid} strong>
              {texts.thanks.trialPaid}
            </Line>
            <Line label={texts.thanks.nextCharge}>
              {texts.thanks.mxn(formatMXN(firstCharge.cents))}
              <Text size="sm" c="dimmed" data-testid="next-charge-date">
                {/* The server's next charge (core's nextChargeDate), as Mis Compras says; the plan's date until the order is paid. */}
                {formatDate(purchase.next_charge_date ?? firstCharge.at, tz)}
              </Text>
            </Line>
          </Stack>
        ) : (
          <Line label={texts.thanks.total} strong>
            {mxn(purchase.total_payment)}
          </Line>
        )}
        <Divider label={texts.thanks.details} labelPosition="left" />
        <Stack gap="xs">
          {purchase.class_amount !== 0 && (
            <Line label={texts.thanks.classes}>{purchase.class_amount === -1 ? texts.thanks.unlimited : purchase.class_amount}</Line>
          )}
          {purchase.payment_method && (
            <Line label={texts.thanks.paymentMethod}>
              {/* The receipt's words: 'Tarjeta Visa terminación 4242'. */}
              {purchase.card ? `${purchase.payment_method.name} ${texts.checkout.savedCard(cardBrandLabel(purchase.card.card_type), purchase.card.last_digits)}` : purchase.payment_method.name}
            </Line>
          )}
          {purchase.payment_channel && <Line label={texts.thanks.paymentMethod}>{purchase.payment_channel === 'oxxo' ? mxTexts.checkout.oxxo : mxTexts.checkout.spei}</Line>}
          {purchase.installments && (
            <Line label={mxTexts.thanks.plan}>{mxTexts.thanks.installmentsPlan(purchase.installments.count, mxn(purchase.installments.monthly))}</Line>
          )}
          {purchase.discount && <Line label={texts.thanks.discountCode}>{purchase.discount.code}</Line>}
          {purchase.customer.email && <Line label={texts.thanks.email}>{purchase.customer.email}</Line>}
          {pkg.is_subscription ? (
            <Text size="sm">{texts.thanks.renewsEveryPeriod(renewalPeriodText(purchase))}</Text>
          ) : days ? (
            <Text size="sm">{texts.thanks.expiresIn(days)}</Text>
          ) : null}
        </Stack>
        {purchase.payment_instructions && <PaymentInstructions instructions={purchase.payment_instructions} pending={pending} tz={tz} />}
        {(purchase.status === 'completed' || purchase.status === 'active') && (purchase.cfdi.can_request || purchase.cfdi.state !== 'none') && (
          <Line label={mxTexts.invoice.column}>
            <InvoiceAction purchaseId={purchase.purchase_id} cfdi={purchase.cfdi} />
          </Line>
        )}
        {cash && pending && (
          <Alert variant="light" color="blue" icon={<IconBuildingBank size={18} />} title={texts.thanks.cashHeading}>
            <Stack gap="sm">
              <BankTransfer purchaseId={purchase.purchase_id} config={config} />
              <Text size="sm">{texts.thanks.cashNote}</Text>
              <Text size="sm">{texts.checkout.cashHold(Number(config.cash_hold_hours) || 24)}</Text>
            </Stack>
          </Alert>
        )}
        <Button component={Link} to={classesPathAfterPurchase(pkg)} size="md" fullWidth mt="sm">
          {texts.thanks.goToClasses}
        </Button>
      </Stack>
    </Paper>
  );
}

/** /gracias/{purchase_id}: the order confirmation (the buyer's own purchase only). */
export default function ThanksPage() {
  const params = useParams();
  const id = Number(params.purchase_id);
  const valid = Number.isInteger(id) && id > 0;
  const { status } = useSession();
  const purchase = trpc.purchases.byId.useQuery({ id }, { enabled: valid && status === 'signedIn', retry: false });

  if (!valid) return <NotFound />;
  if (status === 'signedOut') return <Navigate to={signInPath(`/gracias/${id}`)} replace />;
  if (status === 'signingIn') return <LoadingScreen />;

  let content: ReactNode;
  if (purchase.isError) {
    const facts = errorFacts(purchase.error);
    content = <Alert color="red" variant="light" maw={640} mx="auto" title={facts.status === 404 ? texts.thanks.notFound : facts.message} />;
  } else if (!purchase.data) content = <Skeleton h={480} maw={640} mx="auto" radius="lg" />;
  else content = <Receipt purchase={purchase.data.purchase} />;

  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)">
      <CheckoutHeader title={texts.thanks.heading} />
      <Container component="main" size="lg" py={{ base: 'md', sm: 'xl' }}>
        {content}
      </Container>
    </Box>
  );
}
