import { useEffect } from 'react';
import { Box } from '@mantine/core';
import { useDisclosure, useWindowScroll } from '@mantine/hooks';
import { Outlet, useNavigate } from 'react-router';
import { isOn } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession, type Customer } from '../../session/SessionProvider.tsx';
import { Banner } from './Banner.tsx';
import { TopNav } from './TopNav.tsx';
import { MobileDrawer } from './MobileDrawer.tsx';
import { Footer } from './Footer.tsx';
import { BlockingModals } from './BlockingModals.tsx';
import { AccessingHint } from './AccessingHint.tsx';
import { WhatsAppButton } from '../../ui/WhatsAppButton.tsx';
import classes from './AccountLayout.module.css';
import { SkipLink, skipTarget } from '../../ui/SkipLink.tsx';
import { OfflinePass, useKeepAccessPasses } from '../../offline/OfflinePass.tsx';
import { useOnline } from '../../offline/useOnline.ts';
import { registerServiceWorker } from '../../offline/service-worker.ts';

/** Spec: the banner hides (by a -32px margin) once the page is scrolled past 1000px. */
const BANNER_SCROLL_THRESHOLD = 1000;

/**
 * The account area's header, page and footer. Without a customer (a stored session whose customer is still loading,
 * or the server's render of the calendar: AccountArea) the name is a grey loading bar, the page is one that shows
 * without the customer, and the spec's 30-second way out is kept above it.
 */
export function AccountLayout({ customer }: { customer: Customer | null }) {
  const config = useAppConfig();
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [drawerOpened, drawer] = useDisclosure(false);
  const [scroll] = useWindowScroll();
  const userName = customer && ([customer.name, customer.last_name].filter(Boolean).join(' ') || customer.email);
  const online = useOnline();
  useKeepAccessPasses(customer !== null, online);
  // Signed in, the account area is kept for a visit with no connection (the public pages need no worker).
  const signedIn = customer !== null;
  useEffect(() => {
    if (signedIn) registerServiceWorker();
  }, [signedIn]);

  const leave = () => {
    drawer.close();
    signOut();
    navigate('/entrar', { replace: true });
  };

  return (
    <Box className={classes.shell}>
      <SkipLink />
      <header className={classes.header}>
        {isOn(config.banner_enabled) && (
          <Box visibleFrom="md">
            <Banner config={config} hidden={scroll.y > BANNER_SCROLL_THRESHOLD} />
          </Box>
        )}
        <Box className={classes.navBar}>
          <TopNav config={config} userName={userName} drawerOpened={drawerOpened} onToggleDrawer={drawer.toggle} onSignOut={leave} />
        </Box>
      </header>
      <MobileDrawer config={config} userName={userName} opened={drawerOpened} onClose={drawer.close} onSignOut={leave} />
      <main {...skipTarget} className={classes.main}>
        {!customer && <AccessingHint />}
        {!online && (
          <Box px="md" pt="md" maw={560} mx="auto">
            <OfflinePass online={online} />
          </Box>
        )}
        <Outlet />
      </main>
      <Footer config={config} whatsappPrefix="52" />
      <WhatsAppButton number={config.whatsapp} prefix="52" />
      {customer && <BlockingModals customer={customer} />}
    </Box>
  );
}
