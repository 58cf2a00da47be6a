import { addressCreateInput, addressesListOutput, addressOneOutput, addressUpdateInput, idInput, removedOutput } from '@estudio/core';
import { createAddress, getAddress, listAddresses, removeAddress, updateAddress } from '../services/addresses/addresses.ts';
import { customerProcedure, router } from '../trpc.ts';

const tags = ['profile'];

/** The caller's own addresses; another customer's address is 404. Clients say 'Dirección guardada.' (the spec's 'Address saved.', in Spanish). */
export const addressesRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/addresses', tags, summary: 'Direcciones del cliente de la sesión' } })
    .output(addressesListOutput)
    .query(async ({ ctx }) => ({ addresses: await listAddresses(ctx.db, ctx.customer.customer_id) })),

  byId: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/addresses/{id}', tags, summary: 'Una dirección propia' } })
    .input(idInput)
    .output(addressOneOutput)
    .query(async ({ ctx, input }) => ({ address: await getAddress(ctx.db, ctx.customer.customer_id, input.id) })),

  create: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/addresses', tags, summary: 'Agrega una dirección; la primera queda como la del cliente' } })
    .input(addressCreateInput)
    .output(addressOneOutput)
    .mutation(async ({ ctx, input }) => ({ address: await createAddress(ctx.db, ctx.customer.customer_id, input) })),

  update: customerProcedure
    .meta({ openapi: { method: 'PUT', path: '/addresses', tags, summary: 'Actualiza una dirección propia' } })
    .input(addressUpdateInput)
    .output(addressOneOutput)
    .mutation(async ({ ctx, input: { address_id, ...changes } }) => ({
      address: await updateAddress(ctx.db, ctx.customer.customer_id, address_id, changes),
    })),

  remove: customerProcedure
    .meta({ openapi: { method: 'DELETE', path: '/addresses/{id}', tags, summary: 'Elimina una dirección propia' } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeAddress(ctx.db, ctx.customer.customer_id, input.id)),
});
