import { appConfigOutput, appConfigUpdateInput } from '@estudio/core';
import { getAppConfig } from '../services/appconfig/get-app-config.ts';
import { updateAppConfig } from '../services/appconfig/update-app-config.ts';
import { adminProcedure, callerIsAdmin, publicProcedure, router } from '../trpc.ts';

const tags = ['appconfig'];

export const appconfigRouter = router({
  // Public; an admin's call also reads the private settings (the owner's summary address).
  get: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/appconfig', tags, protect: false, summary: 'Configuración de la app: lista de clave y valor' } })
    .output(appConfigOutput)
    .query(async ({ ctx }) => ({ config: await getAppConfig(ctx.db, ctx.config, { includePrivate: await callerIsAdmin(ctx) }) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/appconfig', tags, summary: 'Cambia valores de la configuración (admin)' } })
    .input(appConfigUpdateInput)
    .output(appConfigOutput)
    .mutation(async ({ ctx, input }) => {
      await updateAppConfig(ctx.db, input.config, ctx.customer.customer_id);
      return { config: await getAppConfig(ctx.db, ctx.config, { includePrivate: true }) };
    }),
});
