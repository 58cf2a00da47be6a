import { attendanceReportOutput, membershipsReportOutput, noShowsReportOutput, reportRangeInput, salesReportOutput, z } from '@estudio/core';
import { attendanceReport, membershipsReport, noShowsReport, salesReport } from '../services/reports/reports.ts';
import { adminProcedure, router } from '../trpc.ts';

const tags = ['reports'];
const rangeErrors = { 400: 'Fechas inválidas o un rango mayor a 366 días' };

/** Issue 8: the studio's numbers, computed by SQL aggregates over local date ranges. */
export const reportsRouter = router({
  attendance: adminProcedure
    .meta({
      openapi: { method: 'GET', path: '/reports/attendance', tags, summary: 'Asistencia por tipo de clase y por coach: reservaciones, asistencias, faltas y ocupación (admin)', errorResponses: rangeErrors },
    })
    .input(reportRangeInput)
    .output(attendanceReportOutput)
    .query(({ ctx, input }) => attendanceReport(ctx.db, input)),

  sales: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/reports/sales', tags, summary: 'Ventas por paquete y por mes, en MXN (admin)', errorResponses: rangeErrors } })
    .input(reportRangeInput)
    .output(salesReportOutput)
    .query(({ ctx, input }) => salesReport(ctx.db, input)),

  memberships: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/reports/memberships', tags, summary: 'Membresías ilimitadas vigentes y suscripciones activas (admin)' } })
    .input(z.object({}))
    .output(membershipsReportOutput)
    .query(({ ctx }) => membershipsReport(ctx.db)),

  noShows: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/reports/no_shows', tags, summary: 'Faltas por cliente en el rango, los que más primero (admin)', errorResponses: rangeErrors } })
    .input(reportRangeInput)
    .output(noShowsReportOutput)
    .query(({ ctx, input }) => noShowsReport(ctx.db, input)),
});
