import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDateTime, texts } from '@estudio/core';
import { useStudioTimeZone } from '../booking/time.ts';
import type { ResponsiveImageProps } from '../ui/ResponsiveImage.tsx';
import { packageCardSizes } from './package-grid.ts';
import { PackageImage } from './PackageImage.tsx';
import { PackagePrice } from './PackagePrice.tsx';
import type { ShopPackage } from './types.ts';

/** One package of the shop; the whole card leads to its checkout. `priority`: its picture's (lazy unless above the fold). */
export function PackageCard({ pkg, priority }: { pkg: ShopPackage; priority?: ResponsiveImageProps['priority'] }) {
  const trialDays = pkg.is_subscription && pkg.free_trial_length ? pkg.free_trial_length : 0;
  const tz = useStudioTimeZone();
  return (
    <Card withBorder radius="lg" padding="lg" shadow="xs" h="100%" data-testid="package-card">
      <Card.Section>
        <PackageImage src={pkg.image} h={140} sizes={packageCardSizes} priority={priority} />
      </Card.Section>
      <Stack gap="xs" mt="md" style={{ flex: 1 }}>
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} fz="lg">
            {pkg.title}
          </Title>
          {trialDays > 0 && (
            <Badge variant="light" color="teal" style={{ flexShrink: 0 }}>
              {texts.shop.trialDays(trialDays)}
            </Badge>
          )}
        </Group>
        {pkg.is_special_event && pkg.event_date && (
          <Group gap={6} wrap="nowrap" data-testid="event-date">
            <IconCalendarEvent size={18} aria-hidden color="var(--mantine-primary-color-filled)" style={{ flexShrink: 0 }} />
            <Text size="sm" fw={700}>
              {texts.shop.eventDate(formatDateTime(pkg.event_date, tz))}
            </Text>
          </Group>
        )}
        {pkg.short_description && (
          <Text size="sm" c="dimmed">
            {pkg.short_description}
          </Text>
        )}
        <PackagePrice pkg={pkg} />
        {(pkg.class_amount !== 0 || pkg.expiration_days) && (
          <Text size="sm">
            {[pkg.class_amount !== 0 ? texts.shop.classes(pkg.class_amount) : null, pkg.expiration_days && !pkg.is_subscription ? texts.shop.expiresIn(pkg.expiration_days) : null]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        )}
      </Stack>
      <Button component={Link} to={`/checkout/${pkg.class_package_id}`} mt="md" fullWidth aria-label={`${texts.shop.buy} ${pkg.title}`}>
        {texts.shop.buy}
      </Button>
    </Card>
  );
}
