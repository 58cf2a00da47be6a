import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCompassOff } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { texts } from '@estudio/core';
import { usePageTitle } from '../ui/usePageTitle.ts';

/**
 * The answer for any route that does not exist, and for routes whose screens
 * are not part of the product yet.
 */
export function NotFound({ home = '/', fullHeight = true }: { home?: string; fullHeight?: boolean }) {
  const { pathname } = useLocation();
  usePageTitle(texts.shell.notFoundTitle);
  const atHome = pathname.replace(/\/+$/, '') === home.replace(/\/+$/, '');
  return (
    <Center mih={fullHeight ? '100dvh' : 420} p="xl">
      <Stack align="center" gap="md" maw={460} ta="center">
        <ThemeIcon size={72} radius="xl" variant="light">
          <IconCompassOff size={40} stroke={1.5} />
        </ThemeIcon>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {texts.shell.notFoundTitle}
        </Title>
        <Text c="dimmed">{texts.shell.notFoundText}</Text>
        {!atHome && (
          <Button component={Link} to={home} size="md">
            {texts.shell.notFoundButton}
          </Button>
        )}
      </Stack>
    </Center>
  );
}
