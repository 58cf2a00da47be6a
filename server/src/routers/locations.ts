import { locationsInput, locationsOutput } from '@estudio/core';
import { listLocations } from '../services/schedule/list-locations.ts';
import { publicProcedure, router } from '../trpc.ts';

export const locationsRouter = router({
  list: publicProcedure
    .meta({
      openapi: { method: 'GET', path: '/locations', tags: ['schedule'], protect: false, summary: 'Sucursales; con fechas, solo las que tienen clases en ese rango' },
    })
    .input(locationsInput)
    .output(locationsOutput)
    .query(async ({ ctx, input }) => ({ locations: await listLocations(ctx.db, input) })),
});
