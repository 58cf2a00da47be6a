import { Suspense, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { matchRoutes, Outlet, type RouteObject } from 'react-router';
import { texts } from '@estudio/core';
import { lazyPage, type LazyPage } from './lazy-page.ts';
import { LoadingScreen } from './ui/LoadingScreen.tsx';
import { NotFound } from './pages/NotFound.tsx';

const LoginPage = lazyPage('src/pages/auth/LoginPage.tsx', () => import('./pages/auth/LoginPage.tsx'));
const SignupPage = lazyPage('src/pages/auth/SignupPage.tsx', () => import('./pages/auth/SignupPage.tsx'));
const RecoverPage = lazyPage('src/pages/auth/RecoverPage.tsx', () => import('./pages/auth/RecoverPage.tsx'));
const ConfirmEmailPage = lazyPage('src/pages/auth/ConfirmEmailPage.tsx', () => import('./pages/auth/ConfirmEmailPage.tsx'));
const StopMessagesPage = lazyPage('src/pages/messages/StopMessagesPage.tsx', () => import('./pages/messages/StopMessagesPage.tsx'));
const AccountArea = lazyPage('src/pages/account/AccountArea.tsx', () => import('./pages/account/AccountArea.tsx'));
const CalendarPage = lazyPage('src/pages/account/CalendarPage.tsx', () => import('./pages/account/CalendarPage.tsx'));
const MyReservationsPage = lazyPage('src/pages/account/reservations/MyReservationsPage.tsx', () => import('./pages/account/reservations/MyReservationsPage.tsx'));
const CreditsPage = lazyPage('src/pages/account/CreditsPage.tsx', () => import('./pages/account/CreditsPage.tsx'));
const WaitlistsPage = lazyPage('src/pages/account/WaitlistsPage.tsx', () => import('./pages/account/WaitlistsPage.tsx'));
const SchedulePage = lazyPage('src/pages/public/SchedulePage.tsx', () => import('./pages/public/SchedulePage.tsx'));
const InfoPage = lazyPage('src/pages/InfoPage.tsx', () => import('./pages/InfoPage.tsx'));
const LandingPage = lazyPage('src/pages/public/LandingPage.tsx', () => import('./pages/public/LandingPage.tsx'));
const NoticesPage = lazyPage('src/pages/public/NoticesPage.tsx', () => import('./pages/public/NoticesPage.tsx'));
const CoachPage = lazyPage('src/pages/public/CoachPage.tsx', () => import('./pages/public/CoachPage.tsx'));
const InstructorPage = lazyPage('src/pages/public/InstructorPage.tsx', () => import('./pages/public/InstructorPage.tsx'));
const ClassTypePage = lazyPage('src/pages/public/ClassTypePage.tsx', () => import('./pages/public/ClassTypePage.tsx'));
const LocationPage = lazyPage('src/pages/public/LocationPage.tsx', () => import('./pages/public/LocationPage.tsx'));
const FaqPage = lazyPage('src/pages/public/FaqPage.tsx', () => import('./pages/public/FaqPage.tsx'));
const ProfilePage = lazyPage('src/pages/account/profile/ProfilePage.tsx', () => import('./pages/account/profile/ProfilePage.tsx'));
const PackagesPage = lazyPage('src/pages/shop/PackagesPage.tsx', () => import('./pages/shop/PackagesPage.tsx'));
const PublicPackagesPage = lazyPage('src/pages/shop/PublicPackagesPage.tsx', () => import('./pages/shop/PublicPackagesPage.tsx'));
const CheckoutPage = lazyPage('src/pages/checkout/CheckoutPage.tsx', () => import('./pages/checkout/CheckoutPage.tsx'));
const ThanksPage = lazyPage('src/pages/checkout/ThanksPage.tsx', () => import('./pages/checkout/ThanksPage.tsx'));
const PurchasesPage = lazyPage('src/pages/account/purchases/PurchasesPage.tsx', () => import('./pages/account/purchases/PurchasesPage.tsx'));
const ChargesPage = lazyPage('src/pages/account/purchases/ChargesPage.tsx', () => import('./pages/account/purchases/ChargesPage.tsx'));
const PaymentMethodsPage = lazyPage('src/pages/account/purchases/PaymentMethodsPage.tsx', () => import('./pages/account/purchases/PaymentMethodsPage.tsx'));
const VideoLibraryPage = lazyPage('src/pages/account/videos/VideoLibraryPage.tsx', () => import('./pages/account/videos/VideoLibraryPage.tsx'));
const VideoPage = lazyPage('src/pages/account/videos/VideoPage.tsx', () => import('./pages/account/videos/VideoPage.tsx'));
const AdminReservationPage = lazyPage('src/pages/admin/AdminReservationPage.tsx', () => import('./pages/admin/AdminReservationPage.tsx'));

const page = (element: ReactNode) => <Suspense fallback={<LoadingScreen />}>{element}</Suspense>;
/** Screens inside the account layout keep its header and footer while they load. */
const section = (element: ReactNode) => (
  <Suspense
    fallback={
      <Center mih={420}>
        <Loader aria-label={texts.shell.loading} />
      </Center>
    }
  >
    {element}
  </Suspense>
);

/** What a route tells the server and the first render: its page's module, and whether the server pre-renders it (decision 026). */
export interface RouteHandle {
  page: LazyPage;
  /**
   * The same for every visitor, or rendered as if it were (the checkout shows its package and leaves the forms to the
   * browser): the server sends it rendered with the studio's data.
   */
  prerender?: boolean;
}

const at = (page: LazyPage, prerender = false): { handle: RouteHandle } => ({ handle: { page, prerender } });

/**
 * Routes of the portal; main.tsx makes the browser's router of them, the
 * server's pre-render (entry-server.tsx) a memory router.
 */
export const routes: RouteObject[] = [
  {
    element: <Outlet />,
    children: [
      { path: '/', element: page(<LandingPage />), ...at(LandingPage, true) },
      { path: '/avisos', element: page(<NoticesPage />), ...at(NoticesPage, true) },
      { path: '/coach/:coachId', element: page(<CoachPage />), ...at(CoachPage, true) },
      { path: '/instructor/:instructorId', element: page(<InstructorPage />), ...at(InstructorPage, true) },
      { path: '/class_type/:classTypeId', element: page(<ClassTypePage />), ...at(ClassTypePage, true) },
      { path: '/ubicacion', element: page(<LocationPage />), ...at(LocationPage, true) },
      { path: '/preguntas-frecuentes', element: page(<FaqPage />), ...at(FaqPage, true) },
      { path: '/entrar', element: page(<LoginPage />), ...at(LoginPage) },
      { path: '/registro', element: page(<SignupPage />), ...at(SignupPage) },
      { path: '/recuperar', element: page(<RecoverPage />), ...at(RecoverPage) },
      { path: '/confirmar-correo', element: page(<ConfirmEmailPage />), ...at(ConfirmEmailPage) },
      // The stop link of optional messages; opening it changes nothing until the button.
      { path: '/mensajes/baja', element: page(<StopMessagesPage />), ...at(StopMessagesPage) },
      { path: '/calendario', element: page(<SchedulePage />), ...at(SchedulePage, true) },
      { path: '/paquetes', element: page(<PublicPackagesPage />), ...at(PublicPackagesPage, true) },
      { path: '/checkout/:class_package_id', element: page(<CheckoutPage />), ...at(CheckoutPage, true) },
      { path: '/gracias/:purchase_id', element: page(<ThanksPage />), ...at(ThanksPage) },
      { path: '/admin/reservaciones/:id', element: page(<AdminReservationPage />), ...at(AdminReservationPage) },
      // The QR link carries the access code last (decision 016); staff on a phone see the same page.
      { path: '/admin/reservaciones/:id/:code', element: page(<AdminReservationPage />), ...at(AdminReservationPage) },
      {
        path: '/mystudio',
        element: page(<AccountArea />),
        // The calendar shows without the customer: the server sends it with its layout and the week (decision 059).
        ...at(AccountArea, true),
        children: [
          { index: true, element: section(<CalendarPage />), ...at(CalendarPage, true) },
          { path: 'reservaciones', element: section(<MyReservationsPage />), ...at(MyReservationsPage) },
          { path: 'creditos', element: section(<CreditsPage />), ...at(CreditsPage) },
          { path: 'waitlists', element: section(<WaitlistsPage />), ...at(WaitlistsPage) },
          { path: 'paquetes', element: section(<PackagesPage />), ...at(PackagesPage) },
          { path: 'membresias', element: section(<PurchasesPage />), ...at(PurchasesPage) },
          { path: 'pagos', element: section(<ChargesPage />), ...at(ChargesPage) },
          { path: 'metodos', element: section(<PaymentMethodsPage />), ...at(PaymentMethodsPage) },
          { path: 'informacion', element: section(<ProfilePage />), ...at(ProfilePage) },
          { path: 'online', element: section(<VideoLibraryPage />), ...at(VideoLibraryPage) },
          { path: 'video/:video_id', element: section(<VideoPage />), ...at(VideoPage) },
          { path: '*', element: <NotFound home="/mystudio" fullHeight={false} /> },
        ],
      },
      { path: '/:slug', element: page(<InfoPage />), ...at(InfoPage) },
      { path: '*', element: <NotFound /> },
    ],
  },
];

/** The matched routes' handles for a path, outermost first (none for the not-found page). */
export function routeHandles(pathname: string): RouteHandle[] {
  return (matchRoutes(routes, pathname) ?? []).flatMap((match) => (match.route.handle ? [match.route.handle as RouteHandle] : []));
}
