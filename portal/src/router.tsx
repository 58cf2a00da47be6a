import { lazy, Suspense, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Outlet } from 'react-router';
import { LoadingScreen } from './ui/LoadingScreen.tsx';
import { NotFound } from './pages/NotFound.tsx';

const LoginPage = lazy(() => import('./pages/auth/LoginPage.tsx'));
const SignupPage = lazy(() => import('./pages/auth/SignupPage.tsx'));
const RecoverPage = lazy(() => import('./pages/auth/RecoverPage.tsx'));
const ConfirmEmailPage = lazy(() => import('./pages/auth/ConfirmEmailPage.tsx'));
const StopMessagesPage = lazy(() => import('./pages/messages/StopMessagesPage.tsx'));
const AccountArea = lazy(() => import('./pages/account/AccountArea.tsx'));
const CalendarPage = lazy(() => import('./pages/account/CalendarPage.tsx'));
const MyReservationsPage = lazy(() => import('./pages/account/reservations/MyReservationsPage.tsx'));
const CreditsPage = lazy(() => import('./pages/account/CreditsPage.tsx'));
const WaitlistsPage = lazy(() => import('./pages/account/WaitlistsPage.tsx'));
const SchedulePage = lazy(() => import('./pages/public/SchedulePage.tsx'));
const InfoPage = lazy(() => import('./pages/InfoPage.tsx'));
const LandingPage = lazy(() => import('./pages/public/LandingPage.tsx'));
const NoticesPage = lazy(() => import('./pages/public/NoticesPage.tsx'));
const CoachPage = lazy(() => import('./pages/public/CoachPage.tsx'));
const InstructorPage = lazy(() => import('./pages/public/InstructorPage.tsx'));
const ClassTypePage = lazy(() => import('./pages/public/ClassTypePage.tsx'));
const LocationPage = lazy(() => import('./pages/public/LocationPage.tsx'));
const FaqPage = lazy(() => import('./pages/public/FaqPage.tsx'));
const ProfilePage = lazy(() => import('./pages/account/profile/ProfilePage.tsx'));
const PackagesPage = lazy(() => import('./pages/shop/PackagesPage.tsx'));
const PublicPackagesPage = lazy(() => import('./pages/shop/PublicPackagesPage.tsx'));
const CheckoutPage = lazy(() => import('./pages/checkout/CheckoutPage.tsx'));
const ThanksPage = lazy(() => import('./pages/checkout/ThanksPage.tsx'));
const PurchasesPage = lazy(() => import('./pages/account/purchases/PurchasesPage.tsx'));
const ChargesPage = lazy(() => import('./pages/account/purchases/ChargesPage.tsx'));
const PaymentMethodsPage = lazy(() => import('./pages/account/purchases/PaymentMethodsPage.tsx'));
const VideoLibraryPage = lazy(() => import('./pages/account/videos/VideoLibraryPage.tsx'));
const VideoPage = lazy(() => import('./pages/account/videos/VideoPage.tsx'));
const AdminReservationPage = lazy(() => import('./pages/admin/AdminReservationPage.tsx'));

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
 */
export const router = createBrowserRouter([
  {
    element: <Outlet />,
    children: [
      { path: '/', element: page(<LandingPage />) },
      { path: '/avisos', element: page(<NoticesPage />) },
      { path: '/coach/:coachId', element: page(<CoachPage />) },
      { path: '/instructor/:instructorId', element: page(<InstructorPage />) },
      { path: '/class_type/:classTypeId', element: page(<ClassTypePage />) },
      { path: '/ubicacion', element: page(<LocationPage />) },
      { path: '/preguntas-frecuentes', element: page(<FaqPage />) },
      { path: '/entrar', element: page(<LoginPage />) },
      { path: '/registro', element: page(<SignupPage />) },
      { path: '/recuperar', element: page(<RecoverPage />) },
      { path: '/confirmar-correo', element: page(<ConfirmEmailPage />) },
      // Issue 17: the stop link of optional messages; opening it changes nothing until the button.
      { path: '/mensajes/baja', element: page(<StopMessagesPage />) },
      { path: '/calendario', element: page(<SchedulePage />) },
      { path: '/paquetes', element: page(<PublicPackagesPage />) },
      { path: '/checkout/:class_package_id', element: page(<CheckoutPage />) },
      { path: '/gracias/:purchase_id', element: page(<ThanksPage />) },
      { path: '/admin/reservaciones/:id', element: page(<AdminReservationPage />) },
      // The QR link carries the access code last (decision 016); staff on a phone see the same page.
      { path: '/admin/reservaciones/:id/:code', element: page(<AdminReservationPage />) },
      {
        path: '/mystudio',
        element: page(<AccountArea />),
        children: [
          { index: true, element: section(<CalendarPage />) },
          { path: 'reservaciones', element: section(<MyReservationsPage />) },
          { path: 'creditos', element: section(<CreditsPage />) },
          { path: 'waitlists', element: section(<WaitlistsPage />) },
          { path: 'paquetes', element: section(<PackagesPage />) },
          { path: 'membresias', element: section(<PurchasesPage />) },
          { path: 'pagos', element: section(<ChargesPage />) },
          { path: 'metodos', element: section(<PaymentMethodsPage />) },
          { path: 'informacion', element: section(<ProfilePage />) },
          { path: 'online', element: section(<VideoLibraryPage />) },
          { path: 'video/:video_id', element: section(<VideoPage />) },
          { path: '*', element: <NotFound home="/mystudio" fullHeight={false} /> },
        ],
      },
      { path: '/:slug', element: page(<InfoPage />) },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
