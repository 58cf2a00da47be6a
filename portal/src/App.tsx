import { useEffect, useMemo, type ReactNode } from 'react';
import { Button, Center, MantineProvider, Stack, Text, Title, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { configMap, faviconOf, texts, type AppConfigMap } from '@estudio/core';
import { createPublicClient, sessionLinks, trpc, type PublicTrpcClient } from './api/trpc.ts';
import { apiErrors } from './api/api-errors.ts';
import { errorFacts } from './api/errors.ts';
import { AppConfigContext } from './config/AppConfigContext.tsx';
import { readableColors, themeFromConfig } from './config/theme.ts';
import { authClientFromConfig } from './config/auth-provider.ts';
import { SessionStore } from './session/session-store.ts';
import { SessionProvider } from './session/SessionProvider.tsx';
import { GlobalModal } from './ui/global-modal.tsx';
import { LoadingScreen } from './ui/LoadingScreen.tsx';
import { ALERT_POSITION } from './ui/alerts.ts';
import toastClasses from './ui/alerts.module.css';

const publicClient = createPublicClient();
const loadingTheme = createTheme({ respectReducedMotion: true });

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error) => apiErrors.report(error) }),
    mutationCache: new MutationCache({ onError: (error) => apiErrors.report(error) }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        // Answers with a domain code are final; only transport failures are retried.
        retry: (failures, error) => failures < 2 && !errorFacts(error).code,
      },
    },
  });
}

function ErrorScreen({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" maw={420} ta="center">
        <Title order={2}>{message}</Title>
        <Text c="dimmed">{texts.shell.networkError}</Text>
        {onRetry && <Button onClick={onRetry}>{texts.shell.retry}</Button>}
      </Stack>
    </Center>
  );
}

/** The studio's name, favicon and brand colour in the document itself. */
function useDocumentBranding(config: AppConfigMap | undefined) {
  useEffect(() => {
    if (!config) return;
    // The tab's title is each page's (usePageTitle); the server's HTML starts with the studio's name.
    const link = document.querySelector<HTMLLinkElement>('link#app-favicon') ?? document.head.appendChild(Object.assign(document.createElement('link'), { id: 'app-favicon', rel: 'icon' }));
    link.href = faviconOf(config);
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', config.primary);
  }, [config]);
}

/** Everything that needs the configuration: the sign-in provider, the session and the routes. */
function Shell({ config, queryClient, client, router }: { config: AppConfigMap; queryClient: QueryClient; client: PublicTrpcClient; router: ReactNode }) {
  const authClient = useMemo(() => authClientFromConfig(config, client), [config, client]);
  const store = useMemo(() => (authClient ? new SessionStore(authClient) : null), [authClient]);
  const trpcClient = useMemo(() => (store ? trpc.createClient({ links: sessionLinks(store) }) : null), [store]);
  if (!store || !trpcClient) return <ErrorScreen message={texts.shell.authConfigError} />;
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <SessionProvider store={store}>
        {router}
      </SessionProvider>
    </trpc.Provider>
  );
}

/**
 * GET /api/appconfig, the request index.html preloads while the entry script
 * downloads (same URL and mode, so the browser hands over that answer); a
 * first paint waits for one round trip fewer than through tRPC after start-up.
 */
export const appConfigKey = ['appconfig'];

async function fetchAppConfig(): Promise<AppConfigMap> {
  const res = await fetch('/api/appconfig');
  const body = (await res.json().catch(() => null)) as { config?: Parameters<typeof configMap>[0] } | null;
  if (!res.ok || !Array.isArray(body?.config)) throw new Error(`GET /api/appconfig: ${res.status}`);
  return configMap(body.config);
}

/** Spec: nothing renders until the app configuration is loaded; a centered loader shows meanwhile. */
function ConfiguredApp({ queryClient, router }: { queryClient: QueryClient; router: ReactNode }) {
  const configQuery = useQuery({
    queryKey: appConfigKey,
    queryFn: fetchAppConfig,
    staleTime: Infinity,
  });
  const config = configQuery.data;
  useDocumentBranding(config);
  const theme = useMemo(() => (config ? themeFromConfig(config) : loadingTheme), [config]);

  return (
    <MantineProvider theme={theme} cssVariablesResolver={readableColors} defaultColorScheme="light">
      <Notifications position={ALERT_POSITION} zIndex={1000} classNames={{ root: toastClasses.toasts }} />
      {config ? (
        <AppConfigContext.Provider value={config}>
          <GlobalModal />
          <Shell config={config} queryClient={queryClient} client={publicClient} router={router} />
        </AppConfigContext.Provider>
      ) : configQuery.isError ? (
        <ErrorScreen message={texts.shell.configError} onRetry={() => void configQuery.refetch()} />
      ) : (
        <LoadingScreen />
      )}
    </MantineProvider>
  );
}

/**
 * The portal around its router: the browser's (main.tsx) or, for a page the
 * server pre-renders, a memory router (entry-server.tsx). The query client
 * comes from outside so both can hand it the studio's configuration and the
 * page's data first (decision 026).
 */
export function App({ queryClient, router }: { queryClient: QueryClient; router: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ConfiguredApp queryClient={queryClient} router={router} />
    </QueryClientProvider>
  );
}
