import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'dayjs/locale/es.js';
import dayjs from 'dayjs';
import { App } from './App.tsx';
import { deskLinks, trpc } from './trpc.ts';

dayjs.locale('es');

const theme = createTheme({ primaryColor: 'teal', defaultRadius: 'md', fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' });

function Root() {
  // Reads come from the local replica: refetching on focus would only repeat the same answer; changes arrive by subscription.
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false, staleTime: Infinity } } }));
  const [trpcClient] = useState(() => trpc.createClient({ links: deskLinks() }));
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="light">
          <Notifications position="top-right" />
          <App />
        </MantineProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><Root /></StrictMode>);
