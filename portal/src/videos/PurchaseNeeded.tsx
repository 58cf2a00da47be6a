import { Button, EmptyState } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { texts } from '@estudio/core';
import { useAppConfig } from '../config/AppConfigContext.tsx';

/** Spec §8: the 412 message, with the way to the shop, whose online section sells the memberships. */
export function PurchaseNeeded() {
  const config = useAppConfig();
  return (
    <EmptyState py={56} variant="light" icon={<IconLock size={32} stroke={1.5} />} title={texts.videos.purchaseNeeded} data-testid="videos-purchase-needed">
      <EmptyState.Actions>
        <Button component={Link} to={config.class_packages_path || '/mystudio/paquetes'}>
          {texts.videos.seePackages}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
