import { Button, Divider, Drawer, NavLink as MantineNavLink, Stack, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { isOn, texts, type AppConfigMap } from '@estudio/core';
import { Banner } from './Banner.tsx';
import { LoadingName } from './TopNav.tsx';
import { drawerAccountItems, drawerMenuItems, type NavLinkItem } from './links.ts';

interface MobileDrawerProps {
  config: AppConfigMap;
  /** Null while the customer loads. */
  userName: string | null;
  opened: boolean;
  onClose: () => void;
  onSignOut: () => void;
}

function Section({ heading, items, onClose }: { heading: string; items: NavLinkItem[]; onClose: () => void }) {
  const { pathname } = useLocation();
  return (
    <Stack gap={2}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" mb={4}>
        {heading}
      </Text>
      {items.map((item) => (
        <MantineNavLink key={item.to + item.label} component={Link} to={item.to} label={item.label} active={pathname === item.to} onClick={onClose} fw={500} />
      ))}
    </Stack>
  );
}

/** Spec: headers 'Menú' and 'Mi Cuenta', a Salir button, and the banner when enabled. */
export function MobileDrawer({ config, userName, opened, onClose, onSignOut }: MobileDrawerProps) {
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="80%" title={userName === null ? <LoadingName width={140} /> : <Text fw={700}>{userName}</Text>} hiddenFrom="md" closeButtonProps={{ 'aria-label': texts.shell.close }}>
      <Stack gap="lg">
        {isOn(config.banner_enabled) && <Banner config={config} inDrawer onNavigate={onClose} />}
        <Section heading={texts.nav.drawerMenu} items={drawerMenuItems(config)} onClose={onClose} />
        <Divider />
        <Section heading={texts.nav.drawerAccount} items={drawerAccountItems(config)} onClose={onClose} />
        <Button variant="light" color="red" leftSection={<IconLogout size={18} />} onClick={onSignOut} fullWidth>
          {texts.nav.signOut}
        </Button>
      </Stack>
    </Drawer>
  );
}
