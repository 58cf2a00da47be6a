import type { ReactNode } from 'react';
import { Alert, Box, Button, Container, Divider, Group, Image, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconBuildingBank } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router';
import { formatDate, formatDateTime, formatMXN, texts, toCents, trialEnd } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorFacts } from '../../api/errors.ts';
import { useStudioTimeZone } from '../../booking/time.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { PurchaseStatusBadge } from '../../shop/PurchaseStatusBadge.tsx';
import type { ShopPurchase } from '../../shop/types.ts';
import { LoadingScreen } from '../../ui/LoadingScreen.tsx';
import { NotFound } from '../NotFound.tsx';
import { CheckoutHeader } from './CheckoutHeader.tsx';

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

/** A subscription bought with a free trial: nothing charged yet, the price on the trial's last day. */
const isFreeTrial = (p: ShopPurchase) => p.class_package.is_subscription && (p.free_trial_length ?? 0) > 0 && toCents(p.total_payment) === 0;

function Receipt({ purchase }: { purchase: ShopPurchase }) {
  const tz = useStudioTimeZone();
  const pkg = purchase.class_package;
  const trial = isFreeTrial(purchase);
  const trialCharge = trial ? trialEnd(purchase) : null;
  const cash = purchase.provider === 'cash' || purchase.payment_method?.name === texts.checkout.cash;
  const config = useAppConfig();
  const days = purchase.expiration_days;

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} maw={640} mx="auto">
      <Stack gap="md">
        <Group justify="space-between" align="center">
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            {texts.thanks.order(purchase.purchase_id)}
          </Title>
          <PurchaseStatusBadge status={purchase.status} cancelledAt={purchase.cancelledAt} />
        </Group>
        {pkg.receipt_file?.src && <Image src={pkg.receipt_file.src} alt="" radius="md" mah={280} fit="contain" />}
        <Stack gap={2}>
          <Title order={2} fz="xl">
            {purchase.title}
          </Title>
          <Text c="dimmed" size="sm">
            {formatDateTime(purchase.createdAt, tz)}
          </Text>
        </Stack>
        <Divider />
        {trial ? (
          <Stack gap="xs">
            <Line label={texts.thanks.totalPaid} strong>
              {texts.thanks.trialPaid}
            </Line>
            <Line label={texts.thanks.nextCharge}>
              {mxn(pkg.sale_price ?? pkg.price)}
              {trialCharge && (
                <Text size="sm" c="dimmed" data-testid="next-charge-date">
                  {formatDate(trialCharge, tz)}
                </Text>
              )}
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
          {purchase.payment_method && <Line label={texts.thanks.paymentMethod}>{purchase.payment_method.name}</Line>}
          {purchase.customer.email && <Line label={texts.thanks.email}>{purchase.customer.email}</Line>}
          {days ? <Text size="sm">{pkg.is_subscription ? texts.thanks.renewsEvery(days) : texts.thanks.expiresIn(days)}</Text> : null}
        </Stack>
        {cash && (
          <Alert variant="light" color="blue" icon={<IconBuildingBank size={18} />} title={texts.thanks.cashHeading}>
            <Stack gap="xs">
              <Text size="sm">{texts.thanks.cashBankTransfer}</Text>
              <Text size="sm">{texts.thanks.cashNote}</Text>
              {purchase.status === 'pending' && <Text size="sm">{texts.checkout.cashHold(Number(config.cash_hold_hours) || 24)}</Text>}
            </Stack>
          </Alert>
        )}
        <Button component={Link} to="/mystudio" size="md" fullWidth mt="sm">
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
  if (status === 'signedOut') return <Navigate to="/entrar" replace />;
  if (status === 'signingIn') return <LoadingScreen />;

  let content: ReactNode;
  if (purchase.isError) {
    const facts = errorFacts(purchase.error);
    content = <Alert color="red" variant="light" maw={640} mx="auto" title={facts.status === 404 ? texts.thanks.notFound : facts.message} />;
  } else if (!purchase.data) content = <Skeleton h={480} maw={640} mx="auto" radius="lg" />;
  else content = <Receipt purchase={purchase.data.purchase} />;

  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)">
      <CheckoutHeader />
      <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
        {content}
      </Container>
    </Box>
  );
}
