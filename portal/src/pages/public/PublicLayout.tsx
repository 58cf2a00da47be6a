import type { ReactNode } from 'react';
import { Box, Button, Container, Group, Image, Text, UnstyledButton } from '@mantine/core';
import { IconUserCircle } from '@tabler/icons-react';
import { Link, NavLink } from 'react-router';
import { texts } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { Footer } from '../account/Footer.tsx';
import classes from '../account/AccountLayout.module.css';

/**
 * The public site's frame: logo, Horarios, and 'Ingresar' or 'Mi Cuenta'
 * (both to /entrar, which sends a signed-in visitor on to /mystudio).
 */
export function PublicLayout({ children }: { children: ReactNode }) {
  const config = useAppConfig();
  const { status } = useSession();
  return (
    <Box className={classes.shell}>
      <header className={classes.header}>
        <Box className={classes.navBar}>
          <Container size="lg" h="100%">
            <Group h="100%" justify="space-between" wrap="nowrap" gap="md">
              <UnstyledButton component={Link} to="/" className={classes.brand} aria-label={config.business_name}>
                {config.navbar_logo ? (
                  <Image src={config.navbar_logo} alt={config.business_name} h={40} w="auto" fit="contain" />
                ) : (
                  <Text fw={800} size="lg">
                    {config.business_name}
                  </Text>
                )}
              </UnstyledButton>
              <Group gap={4} wrap="nowrap" component="nav" aria-label="Principal">
                <NavLink to="/calendario" end className={classes.navLink}>
                  {texts.nav.publicSchedule}
                </NavLink>
                <Button component={Link} to="/entrar" ml="xs" leftSection={<IconUserCircle size={18} />}>
                  {status === 'signedIn' ? texts.nav.myAccount : texts.nav.signIn}
                </Button>
              </Group>
            </Group>
          </Container>
        </Box>
      </header>
      <main className={classes.main}>{children}</main>
      <Footer config={config} whatsappPrefix="521" />
    </Box>
  );
}
