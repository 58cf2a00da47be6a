import { Box, Burger, Button, Container, Group, Menu, Text, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Link, NavLink } from 'react-router';
import { texts, type AppConfigMap } from '@estudio/core';
import { accountMenuItems, topNavItems } from './links.ts';
import classes from './AccountLayout.module.css';
import { BrandLink } from '../../ui/BrandLink.tsx';

interface TopNavProps {
  config: AppConfigMap;
  /** Null while the customer loads: a grey bar of a name's width. */
  userName: string | null;
  drawerOpened: boolean;
  onToggleDrawer: () => void;
  onSignOut: () => void;
}

/**
 * Where the customer's name goes while it loads: a grey bar, read as 'Mi Cuenta'. A span (not Mantine's Skeleton, a
 * div), since it sits in a button or a heading.
 */
export function LoadingName({ width }: { width: number }) {
  return (
    <>
      <Box component="span" display="inline-block" w={width} h={12} bg="gray.2" style={{ borderRadius: 999, verticalAlign: 'middle' }} aria-hidden />
      <VisuallyHidden>{texts.nav.myAccount}</VisuallyHidden>
    </>
  );
}

/** The account area's header: nav items and user menu on desktop, a burger on mobile. */
export function TopNav({ config, userName, drawerOpened, onToggleDrawer, onSignOut }: TopNavProps) {
  return (
    <Container size="lg" h="100%">
      <Group h="100%" justify="space-between" wrap="nowrap" gap="md">
        <BrandLink config={config} to="/mystudio" className={classes.brand} />

        <Group gap={4} visibleFrom="md" wrap="nowrap" component="nav" aria-label="Principal">
          {topNavItems(config).map((item) => (
            <NavLink key={item.to + item.label} to={item.to} end className={classes.navLink}>
              {item.label}
            </NavLink>
          ))}
          <Menu position="bottom-end" width={220} shadow="md" withinPortal>
            <Menu.Target>
              <Button
                variant="subtle"
                color="gray"
                c="dark"
                ml="sm"
                leftSection={<IconUserCircle size={22} stroke={1.5} />}
                rightSection={<IconChevronDown size={16} />}
                className={classes.userButton}
              >
                {userName === null ? (
                  <LoadingName width={120} />
                ) : (
                  <Text span fw={600} size="sm" truncate="end" maw={180}>
                    {userName}
                  </Text>
                )}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {accountMenuItems(config).map((item) => (
                <Menu.Item key={item.to} component={Link} to={item.to}>
                  {item.label}
                </Menu.Item>
              ))}
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={onSignOut}>
                {texts.nav.signOut}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>

        <Burger hiddenFrom="md" opened={drawerOpened} onClick={onToggleDrawer} aria-label={texts.shell.openMenu} />
      </Group>
    </Container>
  );
}
