import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { texts } from '@estudio/core';
import { checkoutPackageSizes } from '../../shop/package-grid.ts';
import { PackageImage } from '../../shop/PackageImage.tsx';
import { PackagePrice } from '../../shop/PackagePrice.tsx';
import type { ShopPackage } from '../../shop/types.ts';
import { SafeHtml } from '../../ui/SafeHtml.tsx';

const hasTags = (text: string) => /<[a-z][\s\S]*>/i.test(text);

/** Spec 'Estás Comprando': image, title, description (HTML when it has tags), short description, price, subscription period. */
export function PackageSummary({ pkg, children }: { pkg: ShopPackage; children?: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Text tt="uppercase" fw={700} size="xs" c="dimmed" lts={1}>
          {texts.checkout.buying}
        </Text>
        <PackageImage src={pkg.image} h={200} radius="md" sizes={checkoutPackageSizes} priority="high" />
        <Title order={2} fz={{ base: 22, sm: 26 }} data-testid="checkout-title">
          {pkg.title}
        </Title>
        {pkg.description && (hasTags(pkg.description) ? <SafeHtml html={pkg.description} /> : <Text>{pkg.description}</Text>)}
        {pkg.short_description && <Text c="dimmed">{pkg.short_description}</Text>}
        <PackagePrice pkg={pkg} size="xl" />
        {children}
      </Stack>
    </Paper>
  );
}
