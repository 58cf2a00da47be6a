import { useState } from 'react';
import { ActionIcon, Alert, Button, EmptyState, Group, Modal, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconCreditCard, IconTrash } from '@tabler/icons-react';
import { cardBrandLabel, isOn, texts, type SandboxCard } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { useSession } from '../../../session/SessionProvider.tsx';
import { LazyStripeCardForm } from '../../../shop/LazyStripeCardForm.tsx';
import { purchaseErrorText } from '../../../shop/purchase-error.ts';
import type { SavedCard } from '../../../shop/types.ts';
import { showError, showSuccess } from '../../../ui/alerts.ts';
import { SandboxCardForm } from '../../checkout/SandboxCardForm.tsx';
import type { StripeCardResult } from '../../checkout/StripeCardForm.tsx';
import { AccountPageFrame } from '../AccountPageFrame.tsx';

const cardName = (source: SavedCard) => texts.checkout.savedCard(cardBrandLabel(source.card_type), source.last_digits);

/** /mystudio/metodos: the customer's saved cards, '+ Agregar' to add one, and delete after a confirmation. */
export default function PaymentMethodsPage() {
  const config = useAppConfig();
  const sources = trpc.paymentSources.list.useQuery();
  const utils = trpc.useUtils();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<SavedCard | null>(null);
  const remove = trpc.paymentSources.remove.useMutation({
    onSuccess: () => {
      setRemoving(null);
      showSuccess(texts.purchases.methodRemoved);
      void utils.paymentSources.invalidate();
    },
    // Spec wording for a failed delete.
    onError: () => showError(texts.purchases.methodRemoveError),
  });
  const rows = sources.data?.payment_sources ?? [];
  const canAdd = isOn(config.payment_sources_enabled);

  let content: React.ReactNode;
  if (sources.isError) content = <Alert color="red" variant="light" title={errorMessage(sources.error)} />;
  else if (!sources.data) content = <Skeleton h={120} radius="md" />;
  else if (rows.length === 0)
    content = <EmptyState py={40} variant="light" icon={<IconCreditCard size={32} stroke={1.5} />} title={texts.purchases.methodsEmpty} />;
  else
    content = (
      <Stack gap="sm">
        {rows.map((source) => (
          <Paper key={source.payment_source_id} withBorder radius="md" p="md" data-testid="payment-source">
            <Group justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <IconCreditCard size={28} stroke={1.5} />
                <div>
                  <Text fw={600}>{cardBrandLabel(source.card_type)}</Text>
                  <Text size="sm" c="dimmed">
                    •••• {source.last_digits}
                    {source.exp_month && source.exp_year ? ` · ${String(source.exp_month).padStart(2, '0')}/${source.exp_year}` : ''}
                  </Text>
                </div>
              </Group>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`${texts.purchases.removeMethod} ${cardBrandLabel(source.card_type)} ${source.last_digits}`}
                onClick={() => setRemoving(source)}
              >
                <IconTrash size={20} />
              </ActionIcon>
            </Group>
          </Paper>
        ))}
      </Stack>
    );

  return (
    <AccountPageFrame
      title={texts.purchases.methodsHeading}
      size="sm"
      actions={
        canAdd && (
          <Button variant="light" onClick={() => setAdding(true)}>
            {texts.purchases.addMethod}
          </Button>
        )
      }
    >
      {content}
      <Modal
        opened={adding}
        onClose={() => setAdding(false)}
        title={texts.purchases.addMethodTitle}
        centered
        closeButtonProps={{ 'aria-label': texts.shell.close }}
      >
        {adding && (
          <AddCard
            onSaved={() => {
              setAdding(false);
              showSuccess(texts.purchases.methodSaved);
              void utils.paymentSources.invalidate();
            }}
          />
        )}
      </Modal>
      <Modal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={texts.purchases.removeTitle}
        centered
        closeButtonProps={{ 'aria-label': texts.shell.close }}
      >
        {removing && (
          <Stack gap="lg">
            <Text>{texts.purchases.removeQuestion(cardName(removing))}</Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setRemoving(null)} disabled={remove.isPending}>
                {texts.purchases.removeKeep}
              </Button>
              <Button color="red" loading={remove.isPending} onClick={() => remove.mutate({ id: removing.payment_source_id })}>
                {texts.purchases.removeConfirm}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </AccountPageFrame>
  );
}

/**
 * The card form of '+ Agregar', as at checkout: the sandbox form saves the
 * test token; with Stripe the card is confirmed on a SetupIntent first (3-D
 * Secure included), then the PaymentMethod is saved.
 */
function AddCard({ onSaved }: { onSaved: () => void }) {
  const config = useAppConfig();
  const { customer } = useSession();
  const utils = trpc.useUtils();
  const [saving, setSaving] = useState(false);
  const [declined, setDeclined] = useState<string | null>(null);
  const stripeKey = config.stripe_public?.trim() ?? '';

  const run = async (save: () => Promise<boolean>) => {
    setSaving(true);
    setDeclined(null);
    try {
      if (await save()) onSaved();
    } catch (error) {
      setDeclined(purchaseErrorText(error));
    } finally {
      setSaving(false);
    }
  };

  const saveSandbox = (card: SandboxCard) =>
    run(async () => {
      await utils.client.paymentSources.create.mutate({ payment_method_token: card.token, card_type: card.brand, last_digits: card.last4 });
      return true;
    });

  const saveStripe = (card: StripeCardResult) =>
    run(async () => {
      const setup = await utils.client.paymentSources.setup.mutate({});
      if (setup.clientSecret) {
        const failure = await card.confirm(setup.clientSecret);
        if (failure) {
          setDeclined(failure);
          return false;
        }
      }
      const brand = ['visa', 'mastercard', 'amex'].includes(card.brand) ? card.brand : 'other';
      await utils.client.paymentSources.create.mutate({ payment_method_token: card.token, card_type: brand, last_digits: card.last4 });
      return true;
    });

  return stripeKey ? (
    <LazyStripeCardForm
      publicKey={stripeKey}
      email={customer?.email ?? ''}
      disabled={saving}
      paying={saving}
      onPay={(card) => void saveStripe(card)}
      onError={setDeclined}
      declined={declined}
      submitLabel={texts.purchases.saveMethod}
    />
  ) : (
    <SandboxCardForm disabled={saving} paying={saving} onPay={(card) => void saveSandbox(card)} declined={declined} submitLabel={texts.purchases.saveMethod} />
  );
}
