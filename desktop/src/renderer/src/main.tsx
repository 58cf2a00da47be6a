import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/charts/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'dayjs/locale/es.js';
import dayjs from 'dayjs';
import { App } from './App.tsx';
import { api } from './admin/api.ts';
import { serverLink } from './server-link.ts';
import { deskLinks, trpc } from './trpc.ts';

dayjs.locale('es');

// respectReducedMotion: a receptionist whose PC asks for less motion gets dialogs and alerts without their slide and fade.
const theme = createTheme({ primaryColor: 'teal', defaultRadius: 'md', respectReducedMotion: true, fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' });

function Root() {
  // Reads come from the local replica: refetching on focus would only repeat the same answer; changes arrive by subscription.
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false, staleTime: Infinity } } }));
  const [trpcClient] = useState(() => trpc.createClient({ links: deskLinks() }));
  // The admin console reads the server (online), where other people change things too: a screen or a search shown
  // again reads again (nothing kept once unused), and a failed read is not retried behind the admin's back.
  const [adminQueryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false, staleTime: 0, gcTime: 0 } } }));
  // The console's calls ride on the desk's own client: one client and one batching of the calls to the desk service.
  const [adminClient] = useState(() => api.createClient({ links: [serverLink(trpcClient)] }));
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <api.Provider client={adminClient} queryClient={adminQueryClient}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="light">
          {/* Date pickers in Spanish, weeks from Monday, like the studio's calendar. */}
          <DatesProvider settings={{ locale: 'es', firstDayOfWeek: 1 }}>
            {/* Top centre, over the header's empty middle: top right covered 'Registrar asistencia'. */}
            <Notifications position="top-center" containerWidth={440} limit={3} />
            <App />
          </DatesProvider>
        </MantineProvider>
      </QueryClientProvider>
      </api.Provider>
    </trpc.Provider>
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><Root /></StrictMode>);
