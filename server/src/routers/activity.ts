import { activityListInput, activityListOutput, activityStaffOutput, customerActivityInput, z } from '@estudio/core';
import { listActivity, listStaffMembers } from '../services/audit/list-activity.ts';
import { adminProcedure, router, staffProcedure } from '../trpc.ts';

const tags = ['activity'];

/** Who did what (audit_log read back as sentences, decision 037). */
export const activityRouter = router({
  list: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/activity', tags, summary: 'Lo que hizo el personal, lo más reciente primero, 30 por página; por persona, cliente, tipo y fechas (admin)' } })
    .input(activityListInput)
    .output(activityListOutput)
    .query(({ ctx, input }) =>
      listActivity(ctx.db, { staffId: input.staff_id, customerId: input.customer_id, kind: input.kind, from: input.from, to: input.to, page: input.page }),
    ),

  staff: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/activity/staff', tags, summary: 'Recepción y administradores, para filtrar la actividad (admin)' } })
    .input(z.object({}))
    .output(activityStaffOutput)
    .query(async ({ ctx }) => ({ staff: await listStaffMembers(ctx.db) })),

  forCustomer: staffProcedure
    .meta({ openapi: { method: 'GET', path: '/customer/{id}/activity', tags, summary: 'Lo que hizo el personal con un cliente, lo más reciente primero (recepción y admin)' } })
    .input(customerActivityInput)
    .output(activityListOutput)
    .query(({ ctx, input }) => listActivity(ctx.db, { customerId: input.id, page: input.page })),
});
