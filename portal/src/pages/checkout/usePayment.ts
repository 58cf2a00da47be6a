import { useState } from 'react';
import { useNavigate } from 'react-router';
import { texts, type SandboxCard } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { purchaseErrorText } from '../../shop/purchase-error.ts';
import { showSuccess } from '../../ui/alerts.ts';
import type { CheckoutOffer } from './useCheckoutOffer.ts';
import type { InstallmentsAsk } from './InstallmentsModal.tsx';
import type { StripeCardResult } from './StripeCardForm.tsx';

interface AttemptAnswer {
  clientSecret?: string;
  purchase_id?: number;
  session?: { url: string };
  installment_plans?: { count: number; monthly: string }[];
}

/**
 * Paying for a checkout's package, one way per function (free, cash, OXXO or
 * SPEI, a card in the sandbox or through Stripe, a saved card): each runs with
 * the spinner on, says a failure beside the button (the spec's purchase error
 * table, never a toast over it) and, once paid, leaves for the order page.
 */
export function usePayment(classPackageId: number, offer: CheckoutOffer, discountCode: string | undefined) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const [paying, setPaying] = useState(false);
  const [saveCard, setSaveCard] = useState(false);
  // Why the last payment failed, said beside the card and above the button that retries it (not a toast over it).
  const [declined, setDeclined] = useState<string | null>(null);
  const [installmentsAsk, setInstallmentsAsk] = useState<InstallmentsAsk | null>(null);
  const { cardMethod, cashMethod, savedCards, sourcesEnabled, installmentsOffered, plan } = offer;

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

  /** The card's meses sin intereses: the customer chooses in the modal, which confirms with the plan (or in one payment). */
  const offerInstallments = (answer: AttemptAnswer, token: string, brand: string, last4: string) => {
    if (!answer.installment_plans?.length || !answer.clientSecret || answer.purchase_id === undefined) return false;
    setInstallmentsAsk({ clientSecret: answer.clientSecret, purchaseId: answer.purchase_id, token, plans: answer.installment_plans, totalCents: plan?.todayCents ?? 0, save: cardToSave(brand, last4) });
    return true;
  };

  /** A new card's attempt, with the plans of meses sin intereses asked for where they are offered. */
  const attemptCard = (card: { token: string; brand: string; last4: string }) => {
    if (!cardMethod) return null;
    return utils.client.checkout.attempt.mutate({
      class_package_id: classPackageId,
      discountCode,
      payment_method: cardMethod.payment_method_id,
      payment_method_token: card.token,
      ...(installmentsOffered ? { ask_installments: true } : {}),
      ...cardToSave(card.brand, card.last4),
    });
  };

  const payFree = () =>
    run(async () => {
      const answer = await utils.client.checkout.create.mutate({ class_package_id: classPackageId, discountCode });
      succeed(answer.purchase_id);
    });

  const payCash = () =>
    run(async () => {
      const answer = await utils.client.checkout.create.mutate({ class_package_id: classPackageId, discountCode, payment_method: cashMethod?.payment_method_id });
      succeed(answer.purchase_id);
    });

  const payVoucher = (channel: 'oxxo' | 'spei') =>
    run(async () => {
      const answer = await utils.client.checkout.voucher.mutate({ class_package_id: classPackageId, discountCode, channel });
      succeed(answer.purchase_id);
    });

  const paySandboxCard = (card: SandboxCard) =>
    run(async () => {
      const answer = await attemptCard(card);
      if (!answer || offerInstallments(answer, card.token, card.brand, card.last4)) return;
      await finishAttempt(answer, async (clientSecret) => {
        // The sandbox confirms on the server what stripe.confirmCardPayment confirms in the browser.
        await utils.client.checkout.confirm.mutate({ clientSecret, payment_method_token: card.token, ...cardToSave(card.brand, card.last4) });
        return true;
      });
    });

  const payStripeCard = (card: StripeCardResult) =>
    run(async () => {
      const answer = await attemptCard(card);
      if (!answer || offerInstallments(answer, card.token, card.brand, card.last4)) return;
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

  return {
    paying,
    declined,
    setDeclined,
    saveCard,
    setSaveCard,
    installmentsAsk,
    closeInstallments: () => setInstallmentsAsk(null),
    succeed,
    payFree,
    payCash,
    payVoucher,
    paySandboxCard,
    payStripeCard,
    paySavedCard,
  };
}
