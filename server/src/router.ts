import { sql } from 'drizzle-orm';
import { z } from '@estudio/core';
import { appconfigRouter } from './routers/appconfig.ts';
import { authRouter } from './routers/auth.ts';
import { creditsRouter } from './routers/credits.ts';
import { customerRouter } from './routers/customer.ts';
import { locationsRouter } from './routers/locations.ts';
import { acceptedPagesRouter, pagesRouter } from './routers/pages.ts';
import { penaltiesRouter } from './routers/penalties.ts';
import { reservationsRouter } from './routers/reservations.ts';
import { scheduleRouter } from './routers/schedule.ts';
import { waitlistRouter } from './routers/waitlist.ts';
import { publicProcedure, router } from './trpc.ts';

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
  pages: pagesRouter,
  acceptedPages: acceptedPagesRouter,
  reservations: reservationsRouter,
  schedule: scheduleRouter,
  locations: locationsRouter,
  waitlist: waitlistRouter,
  credits: creditsRouter,
  penalties: penaltiesRouter,
});

export type AppRouter = typeof appRouter;
