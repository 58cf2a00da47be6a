import { Fragment, lazy, Suspense, useEffect, useMemo, useState } from 'react';
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
import { Link, useNavigate, useParams } from 'react-router';
import { cardBrandLabel, cashAllowedFor, chargePlan, formatMXN, isFreePackage, isOn, mxTexts, texts, toCents, type SandboxCard } from '@estudio/core';
import { useStudioTimeZone } from '../../booking/time.ts';
import { trpc } from '../../api/trpc.ts';
import { errorFacts } from '../../api/errors.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { LazyStripeCardForm } from '../../shop/LazyStripeCardForm.tsx';
import { purchaseErrorText } from '../../shop/purchase-error.ts';
import { TrialChargeNotice } from '../../shop/TrialChargeNotice.tsx';
import { showSuccess } from '../../ui/alerts.ts';
import { DocumentModal, type StudioDocument } from '../../ui/DocumentModal.tsx';
import { NotFound } from '../NotFound.tsx';
import { CheckoutHeader } from './CheckoutHeader.tsx';
import { DiscountForm, type AppliedDiscount } from './DiscountForm.tsx';
import { PackageSummary } from './PackageSummary.tsx';
import { PayPalCheckout } from './PayPalCheckout.tsx';
import { SandboxCardForm } from './SandboxCardForm.tsx';
import { DeclinedNotice } from './DeclinedNotice.tsx';
import type { StripeCardResult } from './StripeCardForm.tsx';
import { useHydrating } from '../../ssr/render-context.ts';
import { InstallmentsModal, type InstallmentsAsk } from './InstallmentsModal.tsx';

/**
 * Sign-in and sign-up, for a visitor who is not signed in yet: a chunk of their own (the sign-up form's validators,
 * selects and password rules are about 50 KiB gzip) that a signed-in customer, the checkout's usual visitor, never
 * downloads (decision 036).
 */
const CheckoutAuth = lazy(() => import('./CheckoutAuth.tsx').then((module) => ({ default: module.CheckoutAuth })));

type Choice = 'cash' | 'card' | 'paypal' | 'oxxo' | 'spei' | `source-${number}`;

interface AttemptAnswer {
  clientSecret?: string;
  purchase_id?: number;
  session?: { url: string };
  installment_plans?: { count: number; monthly: string }[];
}


/**
 * /checkout/{class_package_id}: 'Estás Comprando' with the discount form on the
 * left; sign-in or sign-up, then 'Forma de Pago' on the right. The server
 * prices everything; the page only says which package, code and method.
 */
export default function CheckoutPage() {
  const params = useParams();
  // A new package (the enrolment fee link) starts a fresh checkout.
  return <Checkout key={params.class_package_id} classPackageId={Number(params.class_package_id)} />;
}

function Checkout({ classPackageId }: { classPackageId: number }) {
  const validId = Number.isInteger(classPackageId) && classPackageId > 0;
  const config = useAppConfig();
  const { status, customer } = useSession();
  // The server's pre-render (and the browser's hydration of it) knows no session: the package shows at once, the forms
  // once the browser knows who pays.
  const prerendering = useHydrating();
  const signedIn = status === 'signedIn';
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const tz = useStudioTimeZone();

  const pkgQuery = trpc.packages.byId.useQuery({ id: classPackageId }, { enabled: validId, retry: false });
  const methods = trpc.paymentMethods.list.useQuery(undefined, { enabled: signedIn, staleTime: 5 * 60_000 });
  const sourcesEnabled = isOn(config.payment_sources_enabled);
  const sources = trpc.paymentSources.list.useQuery(undefined, { enabled: signedIn && sourcesEnabled });
  const pages = trpc.pages.list.useQuery(undefined, { staleTime: 5 * 60_000 });
  const feeId = Number(config.signup_fee) || 0;
  const purchases = trpc.purchases.list.useQuery(undefined, { enabled: signedIn && feeId > 0 });
  // Mexico's ways to pay the studio offers (decisions 080, 082): OXXO, SPEI, and from what amount meses sin intereses.
  const mexico = trpc.checkout.options.useQuery(undefined, { enabled: signedIn, staleTime: 5 * 60_000 });
  const [installmentsAsk, setInstallmentsAsk] = useState<InstallmentsAsk | null>(null);

  const [applied, setApplied] = useState<AppliedDiscount | null>(null);
  const [choice, setChoice] = useState<Choice | null>(null);
  const [accepted, setAccepted] = useState(false);
  const [paying, setPaying] = useState(false);
  const [openDocument, setOpenDocument] = useState<StudioDocument | null>(null);
  const [feeDismissed, setFeeDismissed] = useState(false);
  const [saveCard, setSaveCard] = useState(false);
  // Why the last payment failed, said beside the card and above the button that retries it (not a toast over it).
  const [declined, setDeclined] = useState<string | null>(null);

  const pkg = pkgQuery.data?.class_package;
  const requiredPages = useMemo(() => (pages.data?.pages ?? []).filter((page) => page.required), [pages.data]);
  const methodList = methods.data?.payment_methods ?? [];
  const cashMethod = methodList.find((m) => m.provider === 'cash');
  const cardMethod = methodList.find((m) => m.provider === 'card') ?? methodList.find((m) => m.payment_method_id === 1);
  const paypalMethod = methodList.find((m) => m.provider === 'paypal');
  // Decision 029: a free trial is started with a card, never in cash.
  const cashOn = isOn(config.cash_checkout_enabled) && Boolean(cashMethod) && (pkg ? cashAllowedFor(pkg) : false);
  const paypalOn = isOn(config.paypal_enabled) && Boolean(config.paypal_client_id) && Boolean(paypalMethod);
  // A free trial needs a card kept for its first charge (decision 029): no voucher nor transfer for it.
  const oxxoOn = Boolean(mexico.data?.oxxo) && (pkg ? cashAllowedFor(pkg) : false);
  const speiOn = Boolean(mexico.data?.spei) && (pkg ? cashAllowedFor(pkg) : false);
  const savedCards = sourcesEnabled && cardMethod ? (sources.data?.payment_sources ?? []) : [];
  const stripeKey = config.stripe_public?.trim() ?? '';

  // Spec §4: cash by default when cash checkout is enabled (and the package can be paid in cash), otherwise card.
  useEffect(() => {
    if (choice !== null || !methods.data || !pkg) return;
    setChoice(cashOn ? 'cash' : cardMethod ? 'card' : paypalOn ? 'paypal' : null);
  }, [choice, methods.data, pkg, cashOn, cardMethod, paypalOn]);

  if (!validId) return <NotFound />;
  // A package that does not exist: no sign-up form beside the message, only the way back to the shop.
  if (pkgQuery.isError && errorFacts(pkgQuery.error).status === 404) return <PackageMissing />;

  const free = pkg ? isFreePackage(pkg) : false;
  const discountCode = applied?.discount.code;
  // What is charged today and when the first charge comes: the rule the order page shows too.
  const plan = pkg ? chargePlan(pkg, { startedAt: new Date(), discount: applied?.discount ?? null }) : null;
  const trial = plan?.firstCharge ? plan : null;
  const payLabel = trial ? texts.checkout.startTrial : texts.checkout.payNow;
  const installmentsFrom = mexico.data?.installments_min_amount ?? null;
  const installmentsOffered = Boolean(pkg && plan && !pkg.is_subscription && installmentsFrom && plan.todayCents >= toCents(installmentsFrom));
  const needsDocuments = requiredPages.length > 0 && !accepted;
  const checkoutDisabled = isOn(config.checkout_disabled);
  const owesFee =
    signedIn &&
    feeId > 0 &&
    pkg !== undefined &&
    pkg.class_package_id !== feeId &&
    !pkg.is_trial &&
    purchases.data !== undefined &&
    !purchases.data.purchases.some((p) => p.class_package_id === feeId && (p.status === 'active' || p.status === 'completed'));

  /** Spec: a card kept for later always goes with saveCard true, its brand and last digits. */
  const cardToSave = (brand: string, last4: string) =>
    saveCard && sourcesEnabled ? { save_card: true, card_type: ['visa', 'mastercard', 'amex'].includes(brand) ? brand : 'other', last_digits: last4 } : {};

  const succeed = (purchaseId: number, message?: string) => {
    if (message) showSuccess(message);
    void utils.invalidate();
    // The paid checkout leaves the history: 'back' from the order goes where the customer was before, never to a fresh checkout.
    navigate(`/gracias/${purchaseId}`, { replace: true });
  };

  /** Runs one payment with the spinner on; every failure goes through the spec's purchase error table. */
  const run = async (pay: () => Promise<void>) => {
    setPaying(true);
    setDeclined(null);
    try {
      await pay();
    } catch (error) {
      setDeclined(purchaseErrorText(error));
    } finally {
      setPaying(false);
    }
  };

  /**
   * An attempt answers a redirect session, a finished purchase, or a
   * clientSecret (with its purchase_id) that the card provider confirms first.
   */
  const finishAttempt = async (answer: AttemptAnswer, confirm: (clientSecret: string) => Promise<boolean>) => {
    if (answer.session?.url) {
      window.location.assign(answer.session.url);
      return;
    }
    if (answer.clientSecret && !(await confirm(answer.clientSecret))) return;
    if (answer.purchase_id !== undefined) succeed(answer.purchase_id, texts.checkout.purchaseSuccess);
  };

  const payFree = () =>
    run(async () => {
      const answer = await utils.client.checkout.create.mutate({ class_package_id: classPackageId, discountCode });
      succeed(answer.purchase_id);
    });

  const payCash = () =>
    run(async () => {
      const answer = await utils.client.checkout.create.mutate({
        class_package_id: classPackageId,
        discountCode,
        payment_method: cashMethod?.payment_method_id,
      });
      succeed(answer.purchase_id);
    });

  /** The card's meses sin intereses: the customer chooses in the modal, which confirms with the plan (or in one payment). */
  const offerInstallments = (answer: AttemptAnswer, token: string, brand: string, last4: string) => {
    if (!answer.installment_plans?.length || !answer.clientSecret || answer.purchase_id === undefined) return false;
    setInstallmentsAsk({ clientSecret: answer.clientSecret, purchaseId: answer.purchase_id, token, plans: answer.installment_plans, totalCents: plan?.todayCents ?? 0, save: cardToSave(brand, last4) });
    return true;
  };

  const payVoucher = (channel: 'oxxo' | 'spei') =>
    run(async () => {
      const answer = await utils.client.checkout.voucher.mutate({ class_package_id: classPackageId, discountCode, channel });
      succeed(answer.purchase_id);
    });

  const paySandboxCard = (card: SandboxCard) =>
    run(async () => {
      if (!cardMethod) return;
      const answer = await utils.client.checkout.attempt.mutate({
        class_package_id: classPackageId,
        discountCode,
        payment_method: cardMethod.payment_method_id,
        payment_method_token: card.token,
        ...(installmentsOffered ? { ask_installments: true } : {}),
        ...cardToSave(card.brand, card.last4),
      });
      if (offerInstallments(answer, card.token, card.brand, card.last4)) return;
      await finishAttempt(answer, async (clientSecret) => {
        // The sandbox confirms on the server what stripe.confirmCardPayment confirms in the browser.
        await utils.client.checkout.confirm.mutate({ clientSecret, payment_method_token: card.token, ...cardToSave(card.brand, card.last4) });
        return true;
      });
    });

  const payStripeCard = (card: StripeCardResult) =>
    run(async () => {
      if (!cardMethod) return;
      const answer = await utils.client.checkout.attempt.mutate({
        class_package_id: classPackageId,
        discountCode,
        payment_method: cardMethod.payment_method_id,
        payment_method_token: card.token,
        ...(installmentsOffered ? { ask_installments: true } : {}),
        ...cardToSave(card.brand, card.last4),
      });
      if (offerInstallments(answer, card.token, card.brand, card.last4)) return;
      await finishAttempt(answer, async (clientSecret) => {
        // Stripe confirms in the browser; its webhook grants the purchase on the server.
        const failure = await card.confirm(clientSecret);
        if (failure) setDeclined(failure);
        return failure === null;
      });
    });

  const paySavedCard = (paymentSourceId: number) =>
    run(async () => {
      if (!cardMethod) return;
      const source = savedCards.find((s) => s.payment_source_id === paymentSourceId);
      if (!source) return;
      const answer = await utils.client.checkout.attempt.mutate({
        class_package_id: classPackageId,
        discountCode,
        payment_method: cardMethod.payment_method_id,
        payment_source_id: paymentSourceId,
      });
      await finishAttempt(answer, async (clientSecret) => {
        await utils.client.checkout.confirm.mutate({ clientSecret, payment_method_token: source.source_id });
        return true;
      });
    });

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
          <Button size="md" fullWidth onClick={() => void payFree()} disabled={blocked} loading={paying}>
            {texts.checkout.getOffer}
          </Button>
        </Stack>
      );
    else if (!methods.data) payment = <Skeleton h={160} radius="md" />;
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
              <Button size="md" fullWidth onClick={() => void payCash()} disabled={blocked} loading={paying}>
                {texts.checkout.pay}
              </Button>
            </Stack>
          )}
          {(choice === 'oxxo' || choice === 'spei') && (
            <Stack gap="sm">
              <Alert variant="light" color="gray" icon={choice === 'oxxo' ? <IconBuildingStore size={18} /> : <IconTransfer size={18} />}>
                {choice === 'oxxo' ? mxTexts.checkout.oxxoHint : mxTexts.checkout.speiHint}
              </Alert>
              <Button size="md" fullWidth onClick={() => void payVoucher(choice)} disabled={blocked} loading={paying} data-testid={`pay-${choice}`}>
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
                onPay={(card) => void payStripeCard(card)}
                onError={setDeclined}
                declined={declined}
                submitLabel={payLabel}
              />
            ) : (
              <SandboxCardForm disabled={blocked} paying={paying} onPay={(card) => void paySandboxCard(card)} declined={declined} submitLabel={payLabel} />
            ))}
          {choice?.startsWith('source-') && declined && <DeclinedNotice message={declined} />}
          {choice?.startsWith('source-') && (
            <Button size="md" fullWidth onClick={() => void paySavedCard(Number(choice.slice('source-'.length)))} disabled={blocked} loading={paying}>
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
        onClose={() => setInstallmentsAsk(null)}
        onPaid={(purchaseId) => {
          setInstallmentsAsk(null);
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
