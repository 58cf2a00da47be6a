import { customerByPhoneInput, customerOutput, customerSignupInput, customerUpdateInput, z } from '@estudio/core';
import { domainError } from '../errors.ts';
import { toCustomerOutput, toCustomerProfileOutput } from '../services/customer/customer-output.ts';
import { findCustomerByPhone } from '../services/customer/find-customer.ts';
import { signUpCustomer } from '../services/customer/sign-up-customer.ts';
import { updateCustomer } from '../services/customer/update-customer.ts';
import { authedProcedure, customerProcedure, router, staffProcedure } from '../trpc.ts';

const tags = ['customer'];
const customerEnvelope = z.object({ customer: customerOutput });

export const customerRouter = router({
  me: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/customer', tags, summary: 'El cliente de la sesión' } })
    .output(customerEnvelope)
    .query(async ({ ctx }) => ({ customer: await toCustomerProfileOutput(ctx.db, ctx.customer) })),

  update: customerProcedure
    .meta({ openapi: { method: 'PUT', path: '/customer', tags, summary: 'Actualiza el perfil del cliente de la sesión' } })
    .input(customerUpdateInput)
    .output(customerEnvelope)
    .mutation(async ({ ctx, input }) => ({
      customer: await toCustomerProfileOutput(ctx.db, await updateCustomer(ctx.db, ctx.customer.customer_id, input)),
    })),

  signup: authedProcedure
    .meta({
      openapi: { method: 'POST', path: '/customer/signup', tags, summary: 'Crea el cliente de la identidad de la sesión', errorResponses: { 409: 'La cuenta o el teléfono ya existen' } },
    })
    .input(customerSignupInput)
    .output(customerEnvelope)
    .mutation(async ({ ctx, input }) => {
      if (input.uid && input.uid !== ctx.caller.uid) throw domainError('forbidden');
      const row = await signUpCustomer(ctx.db, ctx.caller, input);
      return { customer: toCustomerOutput(row) };
    }),

  byPhone: staffProcedure
    .meta({ openapi: { method: 'GET', path: '/customer/phone', tags, summary: 'Busca un cliente por teléfono (recepción y admin)' } })
    .input(customerByPhoneInput)
    .output(z.object({ customer: customerOutput.nullable() }))
    .query(async ({ ctx, input }) => {
      const row = await findCustomerByPhone(ctx.db, input.phone);
      return { customer: row ? toCustomerOutput(row) : null };
    }),
});
