import type { ReactNode } from 'react';
import { Box, Burger, Button, Container, Divider, Drawer, Group, NavLink as MantineNavLink, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUserCircle } from '@tabler/icons-react';
import { Link, NavLink } from 'react-router';
import { landingSections, texts, type AppConfigMap } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { WhatsAppButton } from '../../ui/WhatsAppButton.tsx';
import { Footer } from '../account/Footer.tsx';
import classes from '../account/AccountLayout.module.css';
import { BrandLink } from '../../ui/BrandLink.tsx';
import { SkipLink, skipTarget } from '../../ui/SkipLink.tsx';

interface PublicNavItem {
  label: string;
  to: string;
}

/**
 * Spec navbar: the packages link (class_packages_name → class_packages_path),
 * Nosotros, Horarios and Paquetes. The configured link is left out when it
 * would repeat 'Paquetes' under the same name.
 */
export function publicNavItems(config: AppConfigMap): PublicNavItem[] {
  const configured = { label: config.class_packages_name || texts.nav.packagesDefault, to: config.class_packages_path || '/paquetes' };
  const items: PublicNavItem[] = [
    // 'Nosotros' leads to the landing's section of that name: only while the landing shows it.
    ...(landingSections(config).includes('about') ? [{ label: texts.nav.publicUs, to: '/#nosotros' }] : []),
    { label: texts.nav.publicSchedule, to: '/calendario' },
    { label: texts.nav.packagesDefault, to: '/paquetes' },
  ];
  return configured.label === texts.nav.packagesDefault || configured.to === '/paquetes' ? items : [configured, ...items];
}

/**
 * The public site's frame: logo, the spec's nav items, 'Ingresar' or
 * 'Mi Cuenta' (both to /entrar, which sends a signed-in visitor on to
 * /mystudio), the footer and the WhatsApp button (521 prefix).
 * `startsOnDemand`: the page is whole without the app (decision 054); a part
 * of it that needs the app says so with `data-needs-app`.
 */
export function PublicLayout({ children, startsOnDemand = false }: { children: ReactNode; startsOnDemand?: boolean }) {
  const config = useAppConfig();
  const { status } = useSession();
  const [opened, drawer] = useDisclosure(false);
  const items = publicNavItems(config);
  const accountLabel = status === 'signedIn' ? texts.nav.myAccount : texts.nav.signIn;
  return (
    // A page whole without the app says so; boot.ts then starts it only when the visitor reaches for it (decision 054).
    <Box className={classes.shell} data-app-start={startsOnDemand ? 'on-demand' : undefined}>
      <SkipLink />
      <header className={classes.header}>
        <Box className={classes.navBar}>
          <Container size="lg" h="100%">
            <Group h="100%" justify="space-between" wrap="nowrap" gap="md">
              <BrandLink config={config} to="/" className={classes.brand} />
              <Group gap={4} wrap="nowrap" component="nav" aria-label="Principal" visibleFrom="sm">
                {items.map((item) =>
                  // A section of the landing ('/#nosotros') is never the current page.
                  item.to.includes('#') ? (
                    <Link key={item.to} to={item.to} className={classes.navLink}>
                      {item.label}
                    </Link>
                  ) : (
                    <NavLink key={item.to} to={item.to} end className={classes.navLink}>
                      {item.label}
                    </NavLink>
                  ),
                )}
                <Button component={Link} to="/entrar" ml="xs" leftSection={<IconUserCircle size={18} />}>
                  {accountLabel}
                </Button>
              </Group>
              <Group gap="xs" wrap="nowrap" hiddenFrom="sm">
                <Button component={Link} to="/entrar" size="xs" leftSection={<IconUserCircle size={16} />}>
                  {accountLabel}
                </Button>
                <Burger opened={opened} onClick={drawer.toggle} aria-label={texts.shell.openMenu} size="sm" />
              </Group>
            </Group>
          </Container>
        </Box>
      </header>
      <Drawer opened={opened} onClose={drawer.close} title={texts.nav.drawerMenu} position="right" size="xs" hiddenFrom="sm" closeButtonProps={{ 'aria-label': texts.shell.close }}>
        <Stack gap={4}>
          {items.map((item) => (
            <MantineNavLink key={item.to} component={Link} to={item.to} label={item.label} onClick={drawer.close} />
          ))}
          <Divider my="sm" />
          <Button component={Link} to="/entrar" onClick={drawer.close} leftSection={<IconUserCircle size={18} />}>
            {accountLabel}
          </Button>
        </Stack>
      </Drawer>
      <main {...skipTarget} className={classes.main}>
        {children}
      </main>
      <Footer config={config} whatsappPrefix="521" />
      <WhatsAppButton number={config.whatsapp} prefix="521" />
    </Box>
  );
}
