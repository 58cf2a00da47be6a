import { coachClassesInput, coachClassesOutput, coachRosterInput, coachRosterOutput, ownPayrollOutput, payrollInput } from '@estudio/core';
import { ownPayroll } from '../services/reports/coach-pay.ts';
import { getCoachRoster, listCoachClasses } from '../services/schedule/coach-classes.ts';
import { coachProcedure, router } from '../trpc.ts';

const tags = ['coach'];

/** Decision 045: what a coach reads in the console, its own classes, their rosters and its pay (decision 139); nothing here writes. */
export const coachRouter = router({
  classes: coachProcedure
    .meta({ openapi: { method: 'GET', path: '/coach/single_class', tags, summary: 'Mis clases como coach en un rango de días del estudio (coach)' } })
    .input(coachClassesInput)
    .output(coachClassesOutput)
    .query(async ({ ctx, input }) => listCoachClasses(ctx.db, ctx.customer.customer_id, input)),

  roster: coachProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/coach/single_class/{id}/roster',
        tags,
        summary: 'Quién reservó una de mis clases: nombre, lugar y asistencia (coach)',
        errorResponses: { 404: 'La clase no existe o no es del coach' },
      },
    })
    .input(coachRosterInput)
    .output(coachRosterOutput)
    .query(async ({ ctx, input }) => getCoachRoster(ctx.db, ctx.customer.customer_id, input.id)),

  pay: coachProcedure
    .meta({ openapi: { method: 'GET', path: '/coach/pay', tags, summary: 'Mi pago como coach: mis clases dadas del rango, su asistencia y lo que paga cada una (coach)' } })
    .input(payrollInput)
    .output(ownPayrollOutput)
    .query(async ({ ctx, input }) => ownPayroll(ctx.db, ctx.customer.customer_id, input)),
});
