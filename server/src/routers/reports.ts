import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  attendanceReportOutput,
  cashUpInput,
  cashUpOutput,
  customersReportOutput,
  membershipsReportOutput,
  noShowsReportOutput,
  payrollInput,
  payrollOutput,
  reportExportInput,
  reportExportOutput,
  reportRangeInput,
  salesWithRefundsOutput,
  z,
} from '@estudio/core';
import { registerFileDownload } from '../http/file-download.ts';
import { cashUp } from '../services/reports/cash-up.ts';
import { customersReport } from '../services/reports/customers-report.ts';
import { exportCsv } from '../services/reports/export-csv.ts';
import { payroll } from '../services/reports/coach-pay.ts';
import { attendanceReport, membershipsReport, noShowsReport, salesReport } from '../services/reports/reports.ts';
import { adminProcedure, router, type Context } from '../trpc.ts';

const tags = ['reports'];
const rangeErrors = { 400: 'Fechas inválidas o un rango mayor a 366 días' };

/** The studio's numbers, computed by SQL aggregates over local date ranges. */
export const reportsRouter = router({
  attendance: adminProcedure
    .meta({
      openapi: { method: 'GET', path: '/reports/attendance', tags, summary: 'Asistencia por tipo de clase y por coach: reservaciones, asistencias, faltas y ocupación (admin)', errorResponses: rangeErrors },
    })
    .input(reportRangeInput)
    .output(attendanceReportOutput)
    .query(({ ctx, input }) => attendanceReport(ctx.db, input)),

  coachPay: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/reports/coach_pay', tags, summary: 'Pago a coaches: cada clase dada del rango, su asistencia, lo que valió y lo que paga, y el total por coach (admin)', errorResponses: rangeErrors } })
    .input(payrollInput)
    .output(payrollOutput)
    .query(({ ctx, input }) => payroll(ctx.db, input)),

  sales: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/reports/sales', tags, summary: 'Ventas por paquete y por mes, en MXN (admin)', errorResponses: rangeErrors } })
    .input(reportRangeInput)
    .output(salesWithRefundsOutput)
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

  // Decision 033: the previous panel's 'Inscritos'.
  customers: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/reports/customers',
        tags,
        summary: 'Clientes del rango: nuevos (cuenta creada), activos (una compra pagada vigente) y cancelados (una compra cancelada o revocada) (admin)',
        errorResponses: rangeErrors,
      },
    })
    .input(reportRangeInput)
    .output(customersReportOutput)
    .query(({ ctx, input }) => customersReport(ctx.db, input)),

  // Decision 034: the day's cash-up and the exports.
  cashUp: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/reports/cash_up', tags, summary: 'Corte de caja de un día: ventas y reembolsos en efectivo y el efectivo esperado en caja (admin)', errorResponses: { 400: 'Fecha inválida' } } })
    .input(cashUpInput)
    .output(cashUpOutput)
    .query(({ ctx, input }) => cashUp(ctx.db, input.date)),

  /** The CSV as text for the desk's console (it reaches the server through tRPC only); REST clients download GET /api/reports/export. */
  exportCsv: adminProcedure
    .input(reportExportInput)
    .output(reportExportOutput)
    .query(async ({ ctx, input }) => ({ ...(await exportCsv(ctx.db, input.kind, input)), content_type: 'text/csv; charset=utf-8' })),
});

/**
 * GET /api/reports/export?kind=customers|purchases|reservations|attendance&start_date=&end_date=
 * (admin): the same export as a file download. It runs the procedure above
 * through a caller, so the admin check, the validation and the errors are the
 * procedures' own.
 */
export function registerReportExport(app: FastifyInstance, createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Context): void {
  registerFileDownload(app, '/api/reports/export', createContext, (context, query) =>
    reportsRouter.createCaller(context).exportCsv(query as z.input<typeof reportExportInput>),
  );
}
