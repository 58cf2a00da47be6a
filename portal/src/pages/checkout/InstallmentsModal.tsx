import { useState } from 'react';
import { Button, Modal, Radio, Stack, Text } from '@mantine/core';
import { formatMXN, mxTexts, texts, toCents } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { purchaseErrorText } from '../../shop/purchase-error.ts';
import { showError } from '../../ui/alerts.ts';

export interface InstallmentsAsk {
  clientSecret: string;
  purchaseId: number;
  /** The card's token: the server confirms the payment with it and the plan chosen. */
  token: string;
  plans: { count: number; monthly: string }[];
  totalCents: number;
  save: Record<string, unknown>;
}

const mxn = (cents: number) => texts.thanks.mxn(formatMXN(cents));

/**
 * Meses sin intereses (decision 082): the plans the card's bank has for this
 * payment, each with its monthly amount, or one payment; nothing is charged
 * until the customer chooses.
 */
export function InstallmentsModal({ ask, onClose, onPaid }: { ask: InstallmentsAsk | null; onClose: () => void; onPaid: (purchaseId: number) => void }) {
  const utils = trpc.useUtils();
  const [choice, setChoice] = useState('1');
  const [paying, setPaying] = useState(false);
  const pay = async () => {
    if (!ask) return;
    setPaying(true);
    try {
      const installments = choice === '1' ? null : (Number(choice) as 3 | 6 | 9 | 12);
      const answer = await utils.client.checkout.confirm.mutate({ clientSecret: ask.clientSecret, payment_method_token: ask.token, installments, ...ask.save });
      onPaid(answer.purchase_id);
    } catch (error) {
      showError(purchaseErrorText(error));
    } finally {
      setPaying(false);
    }
  };
  return (
    <Modal opened={ask !== null} onClose={onClose} title={mxTexts.checkout.installmentsTitle} centered>
      {ask && (
        <Stack gap="md">
          <Text size="sm">{mxTexts.checkout.installmentsChoose}</Text>
          <Radio.Group value={choice} onChange={setChoice} name="installments" aria-label={mxTexts.checkout.installmentsTitle}>
            <Stack gap="xs">
              <Radio value="1" label={mxTexts.checkout.singlePayment(mxn(ask.totalCents))} />
              {ask.plans.map((p) => (
                <Radio key={p.count} value={String(p.count)} label={mxTexts.checkout.installmentOption(p.count, mxn(toCents(p.monthly)))} data-testid={`plan-${p.count}`} />
              ))}
            </Stack>
          </Radio.Group>
          <Button size="md" fullWidth loading={paying} onClick={() => void pay()} data-testid="pay-installments">
            {mxTexts.checkout.installmentsContinue}
          </Button>
        </Stack>
      )}
    </Modal>
  );
}
