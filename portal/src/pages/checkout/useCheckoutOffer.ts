import { useMemo } from 'react';
import { cashAllowedFor, chargePlan, isFreePackage, isOn, texts, toCents } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import type { AppliedDiscount } from './DiscountForm.tsx';

/**
 * What a checkout offers this customer for this package: the package and its
 * price plan (with the discount applied), the ways to pay the studio takes for
 * it, the documents to accept, and whether the enrolment fee is still owed.
 * Reads only; paying is usePayment's.
 */
export function useCheckoutOffer(classPackageId: number, { signedIn, applied }: { signedIn: boolean; applied: AppliedDiscount | null }) {
  const validId = Number.isInteger(classPackageId) && classPackageId > 0;
  const config = useAppConfig();

  const pkgQuery = trpc.packages.byId.useQuery({ id: classPackageId }, { enabled: validId, retry: false });
  const methods = trpc.paymentMethods.list.useQuery(undefined, { enabled: signedIn, staleTime: 5 * 60_000 });
  const sourcesEnabled = isOn(config.payment_sources_enabled);
  const sources = trpc.paymentSources.list.useQuery(undefined, { enabled: signedIn && sourcesEnabled });
  const pages = trpc.pages.list.useQuery(undefined, { staleTime: 5 * 60_000 });
  const feeId = Number(config.signup_fee) || 0;
  const purchases = trpc.purchases.list.useQuery(undefined, { enabled: signedIn && feeId > 0 });
  // Mexico's ways to pay the studio offers (decisions 080, 082): OXXO, SPEI, and from what amount meses sin intereses.
  const mexico = trpc.checkout.options.useQuery(undefined, { enabled: signedIn, staleTime: 5 * 60_000 });

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

  const free = pkg ? isFreePackage(pkg) : false;
  // What is charged today and when the first charge comes: the rule the order page shows too.
  const plan = pkg ? chargePlan(pkg, { startedAt: new Date(), discount: applied?.discount ?? null }) : null;
  const trial = plan?.firstCharge ? plan : null;
  const installmentsFrom = mexico.data?.installments_min_amount ?? null;
  const installmentsOffered = Boolean(pkg && plan && !pkg.is_subscription && installmentsFrom && plan.todayCents >= toCents(installmentsFrom));
  const owesFee =
    signedIn &&
    feeId > 0 &&
    pkg !== undefined &&
    pkg.class_package_id !== feeId &&
    !pkg.is_trial &&
    purchases.data !== undefined &&
    !purchases.data.purchases.some((p) => p.class_package_id === feeId && (p.status === 'active' || p.status === 'completed'));

  return {
    validId,
    pkgQuery,
    pkg,
    methodsLoaded: methods.data !== undefined,
    cashMethod,
    cardMethod,
    paypalMethod,
    cashOn,
    paypalOn,
    oxxoOn,
    speiOn,
    sourcesEnabled,
    savedCards,
    requiredPages,
    free,
    plan,
    trial,
    payLabel: trial ? texts.checkout.startTrial : texts.checkout.payNow,
    installmentsFrom,
    installmentsOffered,
    feeId,
    owesFee,
    checkoutDisabled: isOn(config.checkout_disabled),
    stripeKey: config.stripe_public?.trim() ?? '',
  };
}

export type CheckoutOffer = ReturnType<typeof useCheckoutOffer>;
