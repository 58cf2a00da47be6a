import { sql } from 'drizzle-orm';
import { z } from '@estudio/core';
import { appconfigRouter } from './routers/appconfig.ts';
import { authRouter } from './routers/auth.ts';
import { creditsRouter } from './routers/credits.ts';
import { customerRouter } from './routers/customer.ts';
import { locationsRouter } from './routers/locations.ts';
import { roomsRouter } from './routers/rooms.ts';
import { acceptedPagesRouter, pagesRouter } from './routers/pages.ts';
import { penaltiesRouter } from './routers/penalties.ts';
import { cashShiftsRouter } from './routers/cash-shifts.ts';
import { salesRouter } from './routers/sales.ts';
import { reservationsRouter } from './routers/reservations.ts';
import { scheduleRouter } from './routers/schedule.ts';
import { waitlistRouter } from './routers/waitlist.ts';
// Content, catalogue, profile, forms and files
import { addressesRouter } from './routers/addresses.ts';
import { announcementsRouter } from './routers/announcements.ts';
import { classCategoriesRouter } from './routers/class-categories.ts';
import { classTypesRouter } from './routers/class-types.ts';
import { filesRouter } from './routers/files.ts';
import { customFieldsRouter, formsRouter } from './routers/forms.ts';
import { instructorsRouter } from './routers/instructors.ts';
import { coachRouter } from './routers/coach.ts';
// Shop, checkout, purchases and payments
import { checkoutRouter } from './routers/checkout.ts';
import { cfdiRouter } from './routers/cfdi.ts';
import { discountsRouter } from './routers/discounts.ts';
import { packagesRouter } from './routers/packages.ts';
import { productsRouter } from './routers/products.ts';
import { metodosPagoRouter, paymentMethodsRouter, paymentSourcesRouter } from './routers/payments.ts';
import { invoicesRouter, purchasesRouter } from './routers/purchases.ts';
// Online videos
import { favoritesRouter } from './routers/favorites.ts';
import { standingBookingsRouter } from './routers/standing-bookings.ts';
import { programsRouter } from './routers/programs.ts';
import { tagsRouter } from './routers/tags.ts';
import { videoTypesRouter } from './routers/video-types.ts';
import { videosRouter } from './routers/videos.ts';
// Front desk sync
import { syncRouter } from './routers/sync.ts';
// Admin schedule, reports and outbox
import { adminScheduleRouter } from './routers/admin-schedule.ts';
import { outboxRouter } from './routers/outbox.ts';
// Messaging settings (SMTP, WhatsApp)
import { messagingRouter } from './routers/messaging.ts';
import { reportsRouter } from './routers/reports.ts';
import { coachPayRulesRouter } from './routers/coach-pay-rules.ts';
import { activityRouter } from './routers/activity.ts';
// The customer's messages, stop links and calendar feed
import { messagePreferencesRouter } from './routers/message-preferences.ts';
import { privacyRouter } from './routers/privacy.ts';
import { customerImportRouter } from './routers/customer-import.ts';
import { customerInvitationsRouter } from './routers/customer-invitations.ts';
// A new studio's first run: Primeros pasos and the portal's publication
import { studioSetupRouter } from './routers/studio-setup.ts';
// Who signed in (the previous admin panel's first call)
import { usersRouter } from './routers/users.ts';
import { knowInputsOf, publicProcedure, router } from './trpc.ts';

export const appRouter = router({
  health: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/health', tags: ['health'], protect: false, summary: 'El servidor y su base de datos responden' } })
    .output(z.object({ ok: z.literal(true) }))
    .query(async ({ ctx }) => {
      await ctx.db.execute(sql`select 1`);
      return { ok: true as const };
    }),
  appconfig: appconfigRouter,
  auth: authRouter,
  customer: customerRouter,
  cfdi: cfdiRouter,
  pages: pagesRouter,
  acceptedPages: acceptedPagesRouter,
  reservations: reservationsRouter,
  schedule: scheduleRouter,
  locations: locationsRouter,
  rooms: roomsRouter,
  waitlist: waitlistRouter,
  credits: creditsRouter,
  penalties: penaltiesRouter,
  cashShifts: cashShiftsRouter,
  sales: salesRouter,
  announcements: announcementsRouter,
  instructors: instructorsRouter,
  coach: coachRouter,
  classTypes: classTypesRouter,
  classCategories: classCategoriesRouter,
  addresses: addressesRouter,
  forms: formsRouter,
  customFields: customFieldsRouter,
  files: filesRouter,
  packages: packagesRouter,
  discounts: discountsRouter,
  products: productsRouter,
  checkout: checkoutRouter,
  purchases: purchasesRouter,
  invoices: invoicesRouter,
  paymentMethods: paymentMethodsRouter,
  paymentSources: paymentSourcesRouter,
  metodosPago: metodosPagoRouter,
  videos: videosRouter,
  favorites: favoritesRouter,
  standingBookings: standingBookingsRouter,
  videoTypes: videoTypesRouter,
  programs: programsRouter,
  tags: tagsRouter,
  sync: syncRouter,
  adminSchedule: adminScheduleRouter,
  reports: reportsRouter,
  coachPayRules: coachPayRulesRouter,
  outbox: outboxRouter,
  messaging: messagingRouter,
  messages: messagePreferencesRouter,
  privacy: privacyRouter,
  customerImport: customerImportRouter,
  customerInvitations: customerInvitationsRouter,
  setup: studioSetupRouter,
  users: usersRouter,
  activity: activityRouter,
});

// Every write refuses the fields its input does not take (no silent drop, decision 032).
knowInputsOf(appRouter);

export type AppRouter = typeof appRouter;
