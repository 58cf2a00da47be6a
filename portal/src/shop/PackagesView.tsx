import { Alert, Container, EmptyState, SimpleGrid, Skeleton, Stack, Title } from '@mantine/core';
import { IconShoppingBag } from '@tabler/icons-react';
import { isTrialPackage, regularPackages, texts } from '@estudio/core';
import { trpc } from '../api/trpc.ts';
import { errorMessage } from '../api/errors.ts';
import { PackageCard } from './PackageCard.tsx';
import { packageGrid } from './package-grid.ts';
import type { ShopPackage } from './types.ts';

/**
 * `rank`: which of the shown sections this is. The first rows of the first two are above the fold (a phone shows
 * the trial card and the top of the next section's first; Lighthouse takes that one as the largest paint): fetched at
 * once, their first pictures first. The rest load as the visitor scrolls near them.
 */
function Section({ heading, packages, rank }: { heading: string; packages: ShopPackage[]; rank: number }) {
  if (packages.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-label={heading}>
      <Title order={2} fz={{ base: 20, sm: 24 }}>
        {heading}
      </Title>
      <SimpleGrid cols={packageGrid.cols} spacing={packageGrid.spacing}>
        {packages.map((pkg, i) => (
          <PackageCard key={pkg.class_package_id} pkg={pkg} priority={rank > 1 || i >= 3 ? 'lazy' : i === 0 ? 'high' : 'eager'} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/**
 * The shop (Paquetes): trial offers, the regular in-person list (core's
 * filter and order), online memberships and special events. Every card
 * leads to /checkout/{id}.
 */
export function PackagesView() {
  const list = trpc.packages.list.useQuery(undefined, { staleTime: 60_000 });

  let content: React.ReactNode;
  if (list.isError) content = <Alert color="red" variant="light" title={errorMessage(list.error)} />;
  else if (!list.data) content = <Skeleton h={280} radius="lg" />;
  else {
    const all = list.data.class_packages;
    const trial = all.filter((pkg) => isTrialPackage(pkg) && !pkg.is_signup_fee);
    const events = all.filter((pkg) => pkg.is_special_event && !isTrialPackage(pkg));
    const online = all.filter((pkg) => pkg.is_online && !pkg.is_presencial && !pkg.is_special_event && !isTrialPackage(pkg));
    const regular = regularPackages(all.filter((pkg) => !isTrialPackage(pkg) && !(pkg.is_online && !pkg.is_presencial)));
    const shown = (before: ShopPackage[][]) => before.filter((list) => list.length > 0).length;
    content =
      trial.length + events.length + online.length + regular.length === 0 ? (
        <EmptyState py={48} variant="light" icon={<IconShoppingBag size={32} stroke={1.5} />} title={texts.shop.empty} />
      ) : (
        <Stack gap={40}>
          <Section heading={texts.shop.trialHeading} packages={trial} rank={0} />
          <Section heading={texts.shop.regularHeading} packages={regular} rank={shown([trial])} />
          <Section heading={texts.shop.onlineHeading} packages={online} rank={shown([trial, regular])} />
          <Section heading={texts.shop.eventsHeading} packages={events} rank={shown([trial, regular, online])} />
        </Stack>
      );
  }

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {texts.shop.heading}
        </Title>
        {content}
      </Stack>
    </Container>
  );
}
