import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconDiscount } from '@tabler/icons-react';
import { formatMXN, texts, toCents, type DiscountOutput } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorMessage } from '../../api/errors.ts';
import { showError } from '../../ui/alerts.ts';

export interface AppliedDiscount {
  discount: DiscountOutput;
  /** What the first charge costs with the code, as the server computed it. */
  total: string;
}

interface DiscountFormProps {
  classPackageId: number;
  applied: AppliedDiscount | null;
  onApplied: (applied: AppliedDiscount | null) => void;
}

/** Spec: the discount-code form (signed-in customers, discounts_enabled); the server validates the code against this package. */
export function DiscountForm({ classPackageId, applied, onApplied }: DiscountFormProps) {
  const [code, setCode] = useState('');
  const utils = trpc.useUtils();
  const [checking, setChecking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (!value) return;
    setChecking(true);
    try {
      const answer = await utils.discounts.validate.fetch({ code: value, class_package_id: classPackageId }, { staleTime: 0 });
      onApplied(answer);
    } catch (error) {
      onApplied(null);
      showError(errorMessage(error) || texts.checkout.discountInvalid);
    } finally {
      setChecking(false);
    }
  };

  if (applied) {
    return (
      <Paper withBorder radius="md" p="md" bg="var(--mantine-color-teal-light)">
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={2}>
            <Text fw={600} size="sm">
              {texts.checkout.discountApplied(applied.discount.code)}
            </Text>
            <Text size="sm">
              {texts.checkout.newTotal}:{' '}
              <Text span fw={800} data-testid="discount-total">
                {formatMXN(toCents(applied.total))}
              </Text>
            </Text>
          </Stack>
          <Button variant="subtle" size="xs" onClick={() => onApplied(null)}>
            {texts.checkout.discountRemove}
          </Button>
        </Group>
      </Paper>
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={texts.checkout.discountLabel}
          name="discountCode"
          leftSection={<IconDiscount size={18} />}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value.toUpperCase())}
          autoCapitalize="characters"
        />
        <Button type="submit" variant="light" loading={checking} disabled={!code.trim()}>
          {texts.checkout.discountApply}
        </Button>
      </Group>
    </form>
  );
}
