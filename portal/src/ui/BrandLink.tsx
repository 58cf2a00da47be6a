import { Image, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import type { AppConfigMap } from '@estudio/core';

/** The studio's logo (or its name when no logo is configured), linking home; every header starts with it. */
export function BrandLink({ config, to, className }: { config: AppConfigMap; to: string; className?: string }) {
  return (
    <UnstyledButton component={Link} to={to} className={className} aria-label={config.business_name}>
      {config.navbar_logo ? (
        <Image src={config.navbar_logo} alt={config.business_name} h={40} w="auto" fit="contain" />
      ) : (
        <Text fw={800} size="lg">
          {config.business_name}
        </Text>
      )}
    </UnstyledButton>
  );
}
