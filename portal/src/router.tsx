import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { LoadingScreen } from './ui/LoadingScreen.tsx';
import { NotFound } from './pages/NotFound.tsx';

const LoginPage = lazy(() => import('./pages/auth/LoginPage.tsx'));
const SignupPage = lazy(() => import('./pages/auth/SignupPage.tsx'));
const RecoverPage = lazy(() => import('./pages/auth/RecoverPage.tsx'));
const AccountArea = lazy(() => import('./pages/account/AccountArea.tsx'));
const InfoPage = lazy(() => import('./pages/InfoPage.tsx'));

const page = (element: ReactNode) => <Suspense fallback={<LoadingScreen />}>{element}</Suspense>;

/**
 * Routes of the portal. Screens that belong to later work (calendar, profile,
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
      {
        path: '/mystudio',
        element: page(<AccountArea />),
        children: [
          { index: true, element: <NotFound home="/mystudio" fullHeight={false} /> },
          { path: '*', element: <NotFound home="/mystudio" fullHeight={false} /> },
        ],
      },
      { path: '/:slug', element: page(<InfoPage />) },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
