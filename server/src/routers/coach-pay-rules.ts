import { coachPayRuleIdInput, coachPayRuleInput, coachPayRuleResult, coachPayRulesOutput, z } from '@estudio/core';
import { deletePayRule, listPayRules, savePayRule } from '../services/reports/coach-pay.ts';
import { adminProcedure, router } from '../trpc.ts';

const tags = ['coach-pay'];

/** Decision 139: what each coach earns per class, from a day on (the payroll is GET /reports/coach_pay). */
export const coachPayRulesRouter = router({
  list: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/coach_pay_rules', tags, summary: 'Las tarifas de los coaches, por coach y fecha de inicio (admin)' } })
    .input(z.object({}))
    .output(coachPayRulesOutput)
    .query(({ ctx }) => listPayRules(ctx.db)),
  save: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/coach_pay_rules', tags, summary: 'La tarifa de un coach desde una fecha; la misma fecha otra vez la reemplaza (admin)', errorResponses: { 404: 'El coach no existe' } } })
    .input(coachPayRuleInput)
    .output(coachPayRuleResult)
    .mutation(({ ctx, input }) => savePayRule(ctx.db, input, ctx.customer.customer_id)),
  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/coach_pay_rules/{id}', tags, summary: 'Quita una tarifa; sus clases las paga la tarifa anterior del coach, si la hay (admin)', errorResponses: { 404: 'La tarifa no existe' } } })
    .input(coachPayRuleIdInput)
    .output(coachPayRuleResult)
    .mutation(({ ctx, input }) => deletePayRule(ctx.db, input.id, ctx.customer.customer_id)),
});
