import { Group, Text, type MantineSize } from '@mantine/core';
import { effectivePriceCents, formatMXN, isFreePackage, subscriptionPeriodText, texts, toCents } from '@estudio/core';
import type { ShopPackage } from './types.ts';

/** A package's price: the sale price with the original struck through when it is on sale, then the subscription period. */
export function PackagePrice({ pkg, size = 'xl' }: { pkg: ShopPackage; size?: MantineSize }) {
  const charged = effectivePriceCents(pkg);
  const original = toCents(pkg.price);
  const onSale = charged !== original;
  const period = subscriptionPeriodText(pkg);
  return (
    <Group gap={8} align="baseline" wrap="wrap">
      {onSale && (
        <Text td="line-through" c="dimmed" size="md" data-testid="original-price">
          {formatMXN(original)}
        </Text>
      )}
      <Text fw={800} size={size} data-testid="price">
        {isFreePackage(pkg) ? texts.shop.free : formatMXN(charged)}
      </Text>
      {period && (
        <Text size="sm" c="dimmed">
          {period}
        </Text>
      )}
    </Group>
  );
}
