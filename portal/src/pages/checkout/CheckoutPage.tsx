import { Fragment, lazy, Suspense, useEffect, useState } from 'react';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Checkbox,
  Container,
  Grid,
  Loader,
  LoadingOverlay,
  Modal,
  Paper,
  Radio,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconBuildingBank, IconBuildingStore, IconCash, IconCreditCard, IconBrandPaypal, IconPackageOff, IconTransfer } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { cardBrandLabel, formatMXN, isOn, mxTexts, texts, toCents } from '@estudio/core';
import { useStudioTimeZone } from '../../booking/time.ts';
import { errorFacts } from '../../api/errors.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { LazyStripeCardForm } from '../../shop/LazyStripeCardForm.tsx';
import { purchaseErrorText } from '../../shop/purchase-error.ts';
import { TrialChargeNotice } from '../../shop/TrialChargeNotice.tsx';
import { DocumentModal, type StudioDocument } from '../../ui/DocumentModal.tsx';
import { NotFound } from '../NotFound.tsx';
import { CheckoutHeader } from './CheckoutHeader.tsx';
import { DiscountForm, type AppliedDiscount } from './DiscountForm.tsx';
import { PackageSummary } from './PackageSummary.tsx';
import { PayPalCheckout } from './PayPalCheckout.tsx';
import { SandboxCardForm } from './SandboxCardForm.tsx';
import { DeclinedNotice } from './DeclinedNotice.tsx';
import { useHydrating } from '../../ssr/render-context.ts';
import { InstallmentsModal } from './InstallmentsModal.tsx';
import { useCheckoutOffer } from './useCheckoutOffer.ts';
import { usePayment } from './usePayment.ts';

/**
 * Sign-in and sign-up, for a visitor who is not signed in yet: a chunk of their own (the sign-up form's validators,
 * selects and password rules are about 50 KiB gzip) that a signed-in customer, the checkout's usual visitor, never
 * downloads (decision 036).
 */
const CheckoutAuth = lazy(() => import('./CheckoutAuth.tsx').then((module) => ({ default: module.CheckoutAuth })));

type Choice = 'cash' | 'card' | 'paypal' | 'oxxo' | 'spei' | `source-${number}`;

/**
 * /checkout/{class_package_id}: 'Estás Comprando' with the discount form on the
 * left; sign-in or sign-up, then 'Forma de Pago' on the right. The server
 * prices everything; the page only says which package, code and method. What
 * is offered is useCheckoutOffer's, paying is usePayment's; the page keeps the
 * customer's choices.
 */
export default function CheckoutPage() {
  const params = useParams();
  // A new package (the enrolment fee link) starts a fresh checkout.
  return <Checkout key={params.class_package_id} classPackageId={Number(params.class_package_id)} />;
}

function Checkout({ classPackageId }: { classPackageId: number }) {
  const config = useAppConfig();
  const { status, customer } = useSession();
  // The server's pre-render (and the browser's hydration of it) knows no session: the package shows at once, the forms
  // once the browser knows who pays.
  const prerendering = useHydrating();
  const signedIn = status === 'signedIn';
  const tz = useStudioTimeZone();

  const [applied, setApplied] = useState<AppliedDiscount | null>(null);
  const [choice, setChoice] = useState<Choice | null>(null);
  const [accepted, setAccepted] = useState(false);
  const [openDocument, setOpenDocument] = useState<StudioDocument | null>(null);
  const [feeDismissed, setFeeDismissed] = useState(false);

  const offer = useCheckoutOffer(classPackageId, { signedIn, applied });
  const { pkgQuery, pkg, cashMethod, cardMethod, paypalMethod, cashOn, paypalOn, oxxoOn, speiOn, savedCards, sourcesEnabled, requiredPages, free, trial, payLabel } = offer;
  const { installmentsOffered, installmentsFrom, feeId, owesFee, checkoutDisabled, stripeKey } = offer;
  const discountCode = applied?.discount.code;
  const { paying, declined, setDeclined, saveCard, setSaveCard, installmentsAsk, closeInstallments, succeed, ...pay } = usePayment(classPackageId, offer, discountCode);

  // Spec §4: cash by default when cash checkout is enabled (and the package can be paid in cash), otherwise card.
  useEffect(() => {
    if (choice !== null || !offer.methodsLoaded || !pkg) return;
    setChoice(cashOn ? 'cash' : cardMethod ? 'card' : paypalOn ? 'paypal' : null);
  }, [choice, offer.methodsLoaded, pkg, cashOn, cardMethod, paypalOn]);

  if (!offer.validId) return <NotFound />;
  // A package that does not exist: no sign-up form beside the message, only the way back to the shop.
  if (pkgQuery.isError && errorFacts(pkgQuery.error).status === 404) return <PackageMissing />;

  const needsDocuments = requiredPages.length > 0 && !accepted;

  let left: React.ReactNode;
  if (pkgQuery.isError) {
    const facts = errorFacts(pkgQuery.error);
    left = <Alert color="red" variant="light" title={facts.message} />;
  } else if (!pkg) left = <Skeleton h={420} radius="lg" />;
  else
    left = (
      <PackageSummary pkg={pkg}>
        {trial && <TrialChargeNotice plan={trial} tz={tz} />}
        {signedIn && isOn(config.discounts_enabled) && !free && <DiscountForm classPackageId={pkg.class_package_id} applied={applied} onApplied={setApplied} />}
      </PackageSummary>
    );

  const documents = requiredPages.length > 0 && (
    <Checkbox
      checked={accepted}
      onChange={(e) => setAccepted(e.currentTarget.checked)}
      label={
        <>
          {texts.checkout.acceptDocuments} {config.business_name}:{' '}
          {requiredPages.map((page, index) => (
            <Fragment key={page.page_id}>
              {index > 0 && (index === requiredPages.length - 1 ? ' y ' : ', ')}
              <Anchor component="button" type="button" inherit onClick={() => setOpenDocument(page)}>
                {page.title}
              </Anchor>
            </Fragment>
          ))}
        </>
      }
    />
  );

  const blocked = paying || needsDocuments || owesFee;
  let payment: React.ReactNode = null;
  if (pkg && signedIn) {
    if (checkoutDisabled) payment = <Alert color="yellow" variant="light" title={texts.checkout.checkoutDisabled} />;
    else if (free)
      payment = (
        <Stack gap="md">
          {documents}
          {declined && <DeclinedNotice message={declined} />}
          <Button size="md" fullWidth onClick={() => void pay.payFree()} disabled={blocked} loading={paying}>
            {texts.checkout.getOffer}
          </Button>
        </Stack>
      );
    else if (!offer.methodsLoaded) payment = <Skeleton h={160} radius="md" />;
    else
      payment = (
        <Stack gap="md">
          {trial && isOn(config.cash_checkout_enabled) && (
            <Text size="sm" c="dimmed">
              {texts.checkout.trialCardOnly}
            </Text>
          )}
          <Radio.Group
            value={choice}
            onChange={(value) => {
              setChoice(value as Choice);
              setDeclined(null);
            }}
            name="payment_method"
            aria-label={texts.checkout.paymentHeading}
          >
            <Stack gap="xs">
              {cashOn && <Radio value="cash" label={<MethodLabel icon={<IconCash size={18} />} text={cashMethod?.name ?? texts.checkout.cash} />} />}
              {cardMethod && <Radio value="card" label={<MethodLabel icon={<IconCreditCard size={18} />} text={savedCards.length > 0 ? texts.checkout.newCard : texts.checkout.card} />} />}
              {savedCards.map((source) => (
                <Radio
                  key={source.payment_source_id}
                  value={`source-${source.payment_source_id}`}
                  label={<MethodLabel icon={<IconCreditCard size={18} />} text={texts.checkout.savedCard(cardBrandLabel(source.card_type), source.last_digits)} />}
                />
              ))}
              {oxxoOn && <Radio value="oxxo" label={<MethodLabel icon={<IconBuildingStore size={18} />} text={mxTexts.checkout.oxxo} />} />}
              {speiOn && <Radio value="spei" label={<MethodLabel icon={<IconTransfer size={18} />} text={mxTexts.checkout.spei} />} />}
              {paypalOn && <Radio value="paypal" label={<MethodLabel icon={<IconBrandPaypal size={18} />} text={paypalMethod?.name ?? texts.checkout.paypal} />} />}
            </Stack>
          </Radio.Group>
          {documents}
          {choice === 'cash' && (
            <Stack gap="sm">
              <Alert variant="light" color="gray" icon={<IconBuildingBank size={18} />}>
                {texts.checkout.cashNote} {texts.checkout.cashHold(Number(config.cash_hold_hours) || 24)}
              </Alert>
              {declined && <DeclinedNotice message={declined} />}
              <Button size="md" fullWidth onClick={() => void pay.payCash()} disabled={blocked} loading={paying}>
                {texts.checkout.pay}
              </Button>
            </Stack>
          )}
          {(choice === 'oxxo' || choice === 'spei') && (
            <Stack gap="sm">
              <Alert variant="light" color="gray" icon={choice === 'oxxo' ? <IconBuildingStore size={18} /> : <IconTransfer size={18} />}>
                {choice === 'oxxo' ? mxTexts.checkout.oxxoHint : mxTexts.checkout.speiHint}
              </Alert>
              <Button size="md" fullWidth onClick={() => void pay.payVoucher(choice)} disabled={blocked} loading={paying} data-testid={`pay-${choice}`}>
                {choice === 'oxxo' ? mxTexts.checkout.oxxoPay : mxTexts.checkout.speiPay}
              </Button>
            </Stack>
          )}
          {(choice === 'card' || choice?.startsWith('source-')) && installmentsOffered && installmentsFrom && (
            <Text size="sm" c="dimmed" data-testid="installments-note">
              {mxTexts.checkout.installmentsFrom(texts.thanks.mxn(formatMXN(toCents(installmentsFrom))))}
            </Text>
          )}
          {choice === 'card' && sourcesEnabled && (
            <Checkbox checked={saveCard} onChange={(e) => setSaveCard(e.currentTarget.checked)} label={texts.checkout.saveCard} />
          )}
          {choice === 'card' &&
            (stripeKey ? (
              <LazyStripeCardForm
                publicKey={stripeKey}
                email={customer?.email ?? ''}
                disabled={blocked}
                paying={paying}
                onPay={(card) => void pay.payStripeCard(card)}
                onError={setDeclined}
                declined={declined}
                submitLabel={payLabel}
              />
            ) : (
              <SandboxCardForm disabled={blocked} paying={paying} onPay={(card) => void pay.paySandboxCard(card)} declined={declined} submitLabel={payLabel} />
            ))}
          {choice?.startsWith('source-') && declined && <DeclinedNotice message={declined} />}
          {choice?.startsWith('source-') && (
            <Button size="md" fullWidth onClick={() => void pay.paySavedCard(Number(choice.slice('source-'.length)))} disabled={blocked} loading={paying}>
              {payLabel}
            </Button>
          )}
          {choice === 'paypal' && declined && <DeclinedNotice message={declined} />}
          {choice === 'paypal' && (
            <PayPalCheckout
              clientId={config.paypal_client_id}
              classPackageId={pkg.class_package_id}
              discountCode={discountCode}
              subscription={pkg.is_subscription}
              disabled={blocked}
              onPaid={(purchaseId) => succeed(purchaseId, texts.checkout.paymentSuccess)}
              onError={(error) => setDeclined(purchaseErrorText(error))}
            />
          )}
        </Stack>
      );
  }

  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)">
      <CheckoutHeader />
      <Container component="main" size="lg" py={{ base: 'md', sm: 'xl' }}>
        <Grid gap={{ base: 'md', md: 'xl' }}>
          <Grid.Col span={{ base: 12, md: 6 }}>{left}</Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack gap="lg">
              {/* The server renders the checkout for every visitor alike (decision 036): what it sells, not who buys. */}
              {prerendering && (
                <Paper withBorder radius="lg" p="xl">
                  <Loader mx="auto" display="block" aria-label={texts.shell.loading} />
                </Paper>
              )}
              {!prerendering && (status === 'signedOut' || status === 'needsProfile') && (
                <Suspense fallback={<Skeleton height={320} radius="md" aria-label={texts.shell.loading} />}>
                  <CheckoutAuth />
                </Suspense>
              )}
              {status === 'signingIn' && (
                <Paper withBorder radius="lg" p="xl">
                  <Loader mx="auto" display="block" aria-label={texts.shell.loading} />
                </Paper>
              )}
              {/* While a signed-in customer's account loads, the loader above stands for both panels: no "sign in to pay". */}
              {pkg && !prerendering && status !== 'signingIn' && (
                <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} pos="relative">
                  <LoadingOverlay visible={paying} loaderProps={{ children: <PayingLoader /> }} zIndex={5} />
                  <Stack gap="md">
                    <Title order={2} fz="lg">
                      {free ? texts.checkout.getOffer : texts.checkout.paymentHeading}
                    </Title>
                    {payment ?? (
                      <Text size="sm" c="dimmed">
                        {texts.checkout.signInToPay}
                      </Text>
                    )}
                  </Stack>
                </Paper>
              )}
            </Stack>
          </Grid.Col>
        </Grid>
      </Container>
      <DocumentModal document={openDocument} onClose={() => setOpenDocument(null)} />
      <InstallmentsModal
        ask={installmentsAsk}
        onClose={closeInstallments}
        onPaid={(purchaseId) => {
          closeInstallments();
          succeed(purchaseId, texts.checkout.purchaseSuccess);
        }}
      />
      <Modal
        opened={owesFee && !feeDismissed}
        onClose={() => setFeeDismissed(true)}
        title={texts.checkout.signupFeeTitle}
        centered
        closeButtonProps={{ 'aria-label': texts.shell.close }}
      >
        <Stack gap="md">
          <Text>{texts.checkout.signupFeeText}</Text>
          <Button component={Link} to={`/checkout/${feeId}`} onClick={() => setFeeDismissed(true)}>
            {texts.checkout.signupFeeButton}
          </Button>
        </Stack>
      </Modal>
    </Box>
  );
}

/** /checkout/{id} of a package that does not exist: say so and lead back to the shop. */
function PackageMissing() {
  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)">
      <CheckoutHeader />
      <Container component="main" size="sm" py={{ base: 'xl', sm: 60 }}>
        <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} data-testid="package-missing">
          <Stack align="center" gap="md" ta="center">
            <IconPackageOff size={48} stroke={1.5} color="var(--mantine-color-dimmed)" aria-hidden />
            <Title order={2} fz={{ base: 22, sm: 26 }}>
              {texts.checkout.packageMissingTitle}
            </Title>
            <Text c="dimmed">{texts.checkout.packageMissingText}</Text>
            <Button component={Link} to="/paquetes" size="md">
              {texts.checkout.packageMissingLink}
            </Button>
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}

function MethodLabel({ icon, text }: { icon: React.ReactNode; text: string }) {
  return (
    <Text span size="sm" fw={500} style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
      {icon}
      {text}
    </Text>
  );
}

function PayingLoader() {
  return (
    <Stack align="center" gap="xs">
      <Loader />
      <Text size="sm" fw={600}>
        {texts.checkout.processing}
      </Text>
    </Stack>
  );
}
