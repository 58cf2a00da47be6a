import { lazy, Suspense, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { LoadingScreen } from './ui/LoadingScreen.tsx';
import { NotFound } from './pages/NotFound.tsx';

const LoginPage = lazy(() => import('./pages/auth/LoginPage.tsx'));
const SignupPage = lazy(() => import('./pages/auth/SignupPage.tsx'));
const RecoverPage = lazy(() => import('./pages/auth/RecoverPage.tsx'));
const AccountArea = lazy(() => import('./pages/account/AccountArea.tsx'));
const CalendarPage = lazy(() => import('./pages/account/CalendarPage.tsx'));
const MyReservationsPage = lazy(() => import('./pages/account/reservations/MyReservationsPage.tsx'));
const CreditsPage = lazy(() => import('./pages/account/CreditsPage.tsx'));
const WaitlistsPage = lazy(() => import('./pages/account/WaitlistsPage.tsx'));
const SchedulePage = lazy(() => import('./pages/public/SchedulePage.tsx'));
const InfoPage = lazy(() => import('./pages/InfoPage.tsx'));

const page = (element: ReactNode) => <Suspense fallback={<LoadingScreen />}>{element}</Suspense>;
/** Screens inside the account layout keep its header and footer while they load. */
const section = (element: ReactNode) => (
  <Suspense
    fallback={
      <Center mih={420}>
        <Loader aria-label="Cargando" />
      </Center>
    }
  >
    {element}
  </Suspense>
);

/**
 * Routes of the portal. Screens that belong to later work (profile,
 * purchases, the landing...) answer the not-found page rather than a stand-in.
 * '/' leads to /entrar until the landing exists; a signed-in visitor goes on to /mystudio.
 */
export const router = createBrowserRouter([
  {
    element: <Outlet />,
    children: [
      { path: '/', element: <Navigate to="/entrar" replace /> },
      { path: '/entrar', element: page(<LoginPage />) },
      { path: '/registro', element: page(<SignupPage />) },
      { path: '/recuperar', element: page(<RecoverPage />) },
      { path: '/calendario', element: page(<SchedulePage />) },
      {
        path: '/mystudio',
        element: page(<AccountArea />),
        children: [
          { index: true, element: section(<CalendarPage />) },
          { path: 'reservaciones', element: section(<MyReservationsPage />) },
          { path: 'creditos', element: section(<CreditsPage />) },
          { path: 'waitlists', element: section(<WaitlistsPage />) },
          { path: '*', element: <NotFound home="/mystudio" fullHeight={false} /> },
        ],
      },
      { path: '/:slug', element: page(<InfoPage />) },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
