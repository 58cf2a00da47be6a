import { idInput, locationCreateInput, locationOneOutput, locationsInput, locationsOutput, locationUpdateInput, removedOutput } from '@estudio/core';
import { createLocation, getLocation, removeLocation, updateLocation } from '../services/catalogue/locations.ts';
import { listLocations } from '../services/schedule/list-locations.ts';
import { adminProcedure, publicProcedure, router } from '../trpc.ts';

export const locationsRouter = router({
  list: publicProcedure
    .meta({
      openapi: { method: 'GET', path: '/locations', tags: ['schedule'], protect: false, summary: 'Sucursales; con fechas, solo las que tienen clases en ese rango' },
    })
    .input(locationsInput)
    .output(locationsOutput)
    .query(async ({ ctx, input }) => ({ locations: await listLocations(ctx.db, input) })),

  byId: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/locations/{id}', tags: ['catalogue'], protect: false, summary: 'Una sucursal con todos sus datos' } })
    .input(idInput)
    .output(locationOneOutput)
    .query(async ({ ctx, input }) => ({ location: await getLocation(ctx.db, input.id) })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/locations', tags: ['catalogue'], summary: 'Crea una sucursal (admin)' } })
    .input(locationCreateInput)
    .output(locationOneOutput)
    .mutation(async ({ ctx, input }) => ({ location: await createLocation(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/locations', tags: ['catalogue'], summary: 'Actualiza una sucursal (admin)' } })
    .input(locationUpdateInput)
    .output(locationOneOutput)
    .mutation(async ({ ctx, input: { location_id, ...changes } }) => ({ location: await updateLocation(ctx.db, location_id, changes) })),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/locations/{id}', tags: ['catalogue'], summary: 'Elimina una sucursal sin clases (admin)' } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeLocation(ctx.db, input.id)),
});
