import {
  adminCustomerOneOutput,
  adminCustomersInput,
  adminCustomersOutput,
  customerByPhoneInput,
  customerAnswersOutput,
  customerCreateInput,
  customerNoteCreateInput,
  customerNoteEnvelope,
  customerNoteRemoveInput,
  customerNotesOutput,
  customerOutput,
  customerQueryInput,
  customerQueryOutput,
  customerRecoverInput,
  customerSaveInput,
  customerSetPasswordInput,
  customerSignupInput,
  deskMutationArgs,
  giveAccessOutput,
  idInput,
  messageOutput,
  removeClassesOutput,
  revokeAccessOutput,
  texts,
  z,
} from '@estudio/core';
import { domainError } from '../errors.ts';
import { getAdminCustomer, listAdminCustomers, queryCustomers, sendCustomerRecovery, staffUpdateCustomer } from '../services/customer/admin-customers.ts';
import { createCustomer } from '../services/customer/create-customer.ts';
import { answersForStaff } from '../services/customer/customer-answers.ts';
import { addCustomerNote, listCustomerNotes, removeCustomerNote } from '../services/customer/customer-notes.ts';
import { toCustomerOutput, toCustomerProfileOutput } from '../services/customer/customer-output.ts';
import { findCustomerByPhone } from '../services/customer/find-customer.ts';
import { setCustomerPassword } from '../services/customer/set-customer-password.ts';
import { signUpCustomer } from '../services/customer/sign-up-customer.ts';
import { messagingChannels } from '../services/messages/channels.ts';
import { updateCustomer } from '../services/customer/update-customer.ts';
import { listCredits } from '../services/credits/list-credits.ts';
import { giveAccess } from '../services/desk/give-access.ts';
import { getPurchase } from '../services/purchases/purchases.ts';
import { messageContextOf } from '../services/messages/message-context.ts';
import { removeClasses } from '../services/desk/remove-classes.ts';
import { revokeAccess } from '../services/desk/revoke-access.ts';
import { adminProcedure, authedProcedure, customerProcedure, router, staffProcedure } from '../trpc.ts';

const tags = ['customer'];
const customerEnvelope = z.object({ customer: customerOutput });

export const customerRouter = router({
  me: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/customer', tags, summary: 'El cliente de la sesión' } })
    .output(customerEnvelope)
    .query(async ({ ctx }) => ({ customer: await toCustomerProfileOutput(ctx.db, ctx.customer) })),

  update: customerProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/customer',
        tags,
        summary: 'Actualiza el perfil del cliente de la sesión; un admin puede indicar customer_id de otro cliente y cambiar su rol y correo; recepción cambia los datos de contacto y las preguntas de un cliente (cualquier otro cliente solo puede enviar su propio customer_id y rol; otro es 403)',
        errorResponses: { 403: 'Un cliente que indica otro customer_id u otro rol, o recepción un dato que es del admin', 404: 'El cliente no existe (admin)', 409: 'Teléfono ya registrado, o un admin cambiando su propio rol' },
      },
    })
    .input(customerSaveInput)
    .output(customerEnvelope)
    .mutation(async ({ ctx, input: { customer_id, role, email, ...profile } }) => {
      const asAdmin = ctx.customer.role === 'admin' && (customer_id !== undefined || role !== undefined || email !== undefined);
      // Recepción edits another customer's details at the counter, within core's rule (decision 107).
      const asReception = ctx.customer.role === 'staff' && customer_id !== undefined && customer_id !== ctx.customer.customer_id;
      // A role is never Recepción's to give: refused as any admin-only call is, whoever the customer is (or is not).
      if (asReception && role !== undefined) throw domainError('forbidden');
      if (!asAdmin && !asReception) {
        // No silent drop (decision 032): her own id and role sent back are nothing to do; another customer or another role is not hers to change.
        if ((customer_id !== undefined && customer_id !== ctx.customer.customer_id) || (role !== undefined && role !== ctx.customer.role)) throw domainError('forbidden');
        // Her own e-mail changes only through the mailed link (POST /auth/email); sent back unchanged it is nothing to do.
        if (email !== undefined && email !== ctx.customer.email) throw domainError('customer/email-via-link');
        return { customer: await toCustomerProfileOutput(ctx.db, await updateCustomer(ctx.db, ctx.customer.customer_id, profile)) };
      }
      // Staff edit a customer, audited: an admin anything (role and e-mail included), Recepción what core's rule allows.
      const actor = { customerId: ctx.customer.customer_id, role: ctx.customer.role };
      const row = await staffUpdateCustomer(ctx.db, actor, customer_id ?? ctx.customer.customer_id, { ...profile, role, email }, ctx.config.AUTH_PROVIDER);
      return { customer: await toCustomerProfileOutput(ctx.db, row) };
    }),

  // The admin console's customers. 'admin/all' is declared before 'admin/{id}' so the REST router matches it first.
  adminAll: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/customer/admin/all', tags, summary: 'Clientes por página; busca por nombre, apellido, correo o teléfono (admin)' } })
    .input(adminCustomersInput)
    .output(adminCustomersOutput)
    .query(({ ctx, input }) => listAdminCustomers(ctx.db, input)),

  adminById: adminProcedure
    .meta({
      openapi: { method: 'GET', path: '/customer/admin/{id}', tags, summary: 'Un cliente con sus créditos, membresía y compras (admin)', errorResponses: { 404: 'El cliente no existe' } },
    })
    .input(idInput)
    .output(adminCustomerOneOutput)
    .query(({ ctx, input }) => getAdminCustomer(ctx.db, input.id)),

  query: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/customer/query', tags, summary: 'Hasta 10 clientes que coinciden, para elegir uno (admin)' } })
    .input(customerQueryInput)
    .output(customerQueryOutput)
    .query(async ({ ctx, input }) => ({ customers: await queryCustomers(ctx.db, input.query) })),

  recover: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/recover',
        tags,
        summary: 'Envía al cliente el correo para reestablecer su contraseña (admin)',
        errorResponses: { 404: 'Ningún cliente tiene ese correo' },
      },
    })
    .input(customerRecoverInput)
    .output(messageOutput)
    .mutation(async ({ ctx, input }) => {
      await sendCustomerRecovery(ctx.db, ctx.identity, ctx.customer.customer_id, input.email);
      // Never 'sent' when it waits (decision 079): the console offers the password at the counter instead.
      return { message: (await messagingChannels(ctx.db, ctx.config)).email ? texts.adminCommerce.recoverSent : texts.adminCommerce.recoverNotSent };
    }),

  /** Decision 079: the customer types her new password on the studio's screen; never a code for staff. Local sign-in only. */
  setPassword: staffProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/password',
        tags,
        summary: 'La clienta escribe su nueva contraseña en la pantalla del estudio; cierra sus sesiones (recepción y admin)',
        errorResponses: { 403: 'La cuenta es de personal del estudio', 404: 'Ningún cliente tiene ese id' },
      },
    })
    .input(customerSetPasswordInput)
    .output(messageOutput)
    .mutation(({ ctx, input }) => setCustomerPassword(ctx.db, ctx.identity.name, ctx.customer.customer_id, input)),

  signup: authedProcedure
    .meta({
      openapi: { method: 'POST', path: '/customer/signup', tags, summary: 'Crea el cliente de la identidad de la sesión', errorResponses: { 409: 'La cuenta o el teléfono ya existen' } },
    })
    .input(customerSignupInput)
    .output(customerEnvelope)
    .mutation(async ({ ctx, input }) => {
      if (input.uid && input.uid !== ctx.caller.uid) throw domainError('forbidden');
      const row = await signUpCustomer(ctx.db, ctx.caller, input, messageContextOf(ctx.config));
      return { customer: await toCustomerProfileOutput(ctx.db, row) };
    }),

  // A first-time walk-in registered at the desk (or a customer added by an admin), with the documents they accepted there.
  create: staffProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer',
        tags,
        summary: 'Registra un cliente nuevo sin cuenta de acceso, con los documentos que aceptó (recepción y admin)',
        errorResponses: { 400: 'Un campo falta, no es válido o no existe; faltan documentos obligatorios', 409: 'El correo o el teléfono ya tienen una cuenta' },
      },
    })
    .input(customerCreateInput)
    .output(customerEnvelope)
    .mutation(async ({ ctx, input }) => ({ customer: toCustomerOutput(await createCustomer(ctx.db, ctx.customer.customer_id, input)) })),

  byPhone: staffProcedure
    .meta({ openapi: { method: 'GET', path: '/customer/phone', tags, summary: 'Busca un cliente por teléfono (recepción y admin)' } })
    .input(customerByPhoneInput)
    .output(z.object({ customer: customerOutput.nullable() }))
    .query(async ({ ctx, input }) => {
      const row = await findCustomerByPhone(ctx.db, input.phone);
      return { customer: row ? toCustomerOutput(row) : null };
    }),

  // Decision 087: the studio's questions and her answers, read-only at the desk (health among them: staff only).
  answers: staffProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/{id}/answers',
        tags,
        summary: 'Las respuestas del cliente a las preguntas del estudio, con las de salud (recepción y admin)',
        errorResponses: { 404: 'El cliente no existe' },
      },
    })
    .input(idInput)
    .output(customerAnswersOutput)
    .query(async ({ ctx, input }) => ({ answers: await answersForStaff(ctx.db, input.id) })),

  // Notes, alerts and health notes on a customer; desks reach the same service through sync.push.
  notes: staffProcedure
    .meta({ openapi: { method: 'GET', path: '/customer/{id}/notes', tags, summary: 'Las notas, alertas y notas de salud del personal sobre un cliente (recepción y admin)' } })
    .input(idInput)
    .output(customerNotesOutput)
    .query(async ({ ctx, input }) => ({ notes: await listCustomerNotes(ctx.db, input.id) })),

  addNote: staffProcedure
    .meta({ openapi: { method: 'POST', path: '/customer/notes', tags, summary: 'Agrega una nota, alerta o nota de salud a un cliente (recepción y admin)', errorResponses: { 404: 'El cliente no existe' } } })
    .input(customerNoteCreateInput)
    .output(customerNoteEnvelope)
    .mutation(async ({ ctx, input }) => ({ note: await addCustomerNote(ctx.db, ctx.customer, input) })),

  removeNote: staffProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/customer/notes/{id}',
        tags,
        summary: 'Quita una nota de un cliente: recepción las que escribió, un admin cualquiera (recepción y admin)',
        errorResponses: { 403: 'Recepción y una nota que no escribió', 404: 'La nota no existe o no es de ese cliente' },
      },
    })
    .input(customerNoteRemoveInput)
    .output(z.object({ customer_note_id: z.number() }))
    .mutation(({ ctx, input }) => removeCustomerNote(ctx.db, ctx.customer, { customer_note_id: input.id, customer_id: input.customer_id })),

  // Access granted and taken at the front desk; desks reach the same services through sync.push.
  giveAccess: staffProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/giveAccess',
        tags,
        summary: 'Da acceso a un paquete a un cliente, de regalo o pagado en recepción (recepción y admin)',
        errorResponses: { 404: 'El cliente, el paquete o la forma de pago no existen' },
      },
    })
    .input(deskMutationArgs.giveAccess)
    .output(giveAccessOutput)
    .mutation(async ({ ctx, input }) => {
      const purchase = await giveAccess(ctx.db, ctx.customer, input, messageContextOf(ctx.config));
      return { message: texts.desk.accessAdded, purchase_id: purchase.purchase_id, purchase: await getPurchase(ctx.db, purchase.purchase_id, ctx.customer) };
    }),

  revokeAccess: staffProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/customer/revokeAccess',
        tags,
        summary: 'Quita el acceso de una compra: sus créditos vigentes se eliminan (recepción y admin)',
        errorResponses: { 404: 'La compra no existe', 409: 'El acceso ya fue eliminado' },
      },
    })
    .input(deskMutationArgs.revokeAccess)
    .output(revokeAccessOutput)
    .mutation(async ({ ctx, input }) => {
      const { purchase, removedCreditIds } = await revokeAccess(ctx.db, ctx.customer, input);
      const stored = await getPurchase(ctx.db, purchase.purchase_id, ctx.customer);
      return { message: texts.desk.accessRemoved, purchase_id: purchase.purchase_id, purchase: stored, available_class_ids: removedCreditIds };
    }),

  removeClasses: staffProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/customer/removeClasses',
        tags,
        summary: 'Resta clases de los créditos vigentes de un cliente, primero los que vencen antes (recepción y admin)',
        errorResponses: { 404: 'El cliente no existe', 409: 'El cliente no tiene suficientes clases' },
      },
    })
    .input(deskMutationArgs.removeClasses)
    .output(removeClassesOutput)
    .mutation(async ({ ctx, input }) => {
      const { changedCreditIds } = await removeClasses(ctx.db, ctx.customer, input);
      return { message: texts.desk.classesRemoved, available_class_ids: changedCreditIds, credits: await listCredits(ctx.db, input.customer_id) };
    }),
});
