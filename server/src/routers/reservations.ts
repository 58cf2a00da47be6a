import {
  cancelReservationOutput,
  createReservationInput,
  myReservationsInput,
  ratingInput,
  reservationIdInput,
  reservationListOutput,
  reservationResult,
  reservationSearchInput,
  updateReservationInput,
} from '@estudio/core';
import { domainError } from '../errors.ts';
import { cancelReservation } from '../services/reservations/cancel-reservation.ts';
import { createReservation } from '../services/reservations/create-reservation.ts';
import { listMyReservations, searchReservations } from '../services/reservations/list-reservations.ts';
import { rateReservation } from '../services/reservations/rate-reservation.ts';
import { toReservationOutput } from '../services/reservations/reservation-output.ts';
import { updateReservation } from '../services/reservations/update-reservation.ts';
import { customerProcedure, router } from '../trpc.ts';

const tags = ['reservations'];
const bookingErrors = {
  404: 'La clase o la reservación no existe',
  409: 'Ya reservaste esta clase o el lugar ya está ocupado',
  412: 'La clase está llena, fuera de horario, sin créditos o con penalización',
};
const isStaff = (role: string) => role === 'staff' || role === 'admin';

export const reservationsRouter = router({
  create: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/class_reservations', tags, summary: 'Reserva una clase (recepción puede indicar customer_id)', errorResponses: bookingErrors } })
    .input(createReservationInput)
    .output(reservationResult)
    .mutation(async ({ ctx, input }) => {
      const staff = isStaff(ctx.customer.role);
      const customerId = input.customer_id ?? ctx.customer.customer_id;
      if (customerId !== ctx.customer.customer_id && !staff) throw domainError('forbidden');
      const row = await createReservation(ctx.db, {
        customerId,
        singleClassId: input.single_class_id,
        spot: input.spot,
        guest: input.guest,
        byStaff: staff && customerId !== ctx.customer.customer_id,
      });
      return { class_reservation: toReservationOutput(row) };
    }),

  update: customerProcedure
    .meta({ openapi: { method: 'PUT', path: '/class_reservations', tags, summary: 'Cambia el lugar o el invitado de una reservación', errorResponses: bookingErrors } })
    .input(updateReservationInput)
    .output(reservationResult)
    .mutation(async ({ ctx, input }) => {
      const row = await updateReservation(ctx.db, {
        reservationId: input.class_reservation_id,
        spot: input.spot,
        guest: input.guest,
        actor: { customerId: ctx.customer.customer_id, role: ctx.customer.role },
      });
      return { class_reservation: toReservationOutput(row) };
    }),

  remove: customerProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/class_reservations/{id}',
        tags,
        summary: 'Cancela una reservación (cliente: con las reglas de cancelación; recepción y admin: siempre devuelve el crédito)',
      },
    })
    .input(reservationIdInput)
    .output(cancelReservationOutput)
    .mutation(async ({ ctx, input }) => {
      const { reservation, creditReturned } = await cancelReservation(ctx.db, {
        reservationId: input.id,
        actor: { customerId: ctx.customer.customer_id, role: ctx.customer.role },
        mode: isStaff(ctx.customer.role) ? 'staff' : 'customer',
      });
      return { class_reservation: toReservationOutput(reservation), credit_returned: creditReturned };
    }),

  search: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/class_reservations', tags, summary: 'Busca reservaciones (un cliente solo ve las suyas)' } })
    .input(reservationSearchInput)
    .output(reservationListOutput)
    .query(async ({ ctx, input }) => {
      // A customer's search is always pinned to their own rows, whatever customer_id says.
      const customer_id = isStaff(ctx.customer.role) ? input.customer_id : ctx.customer.customer_id;
      return searchReservations(ctx.db, { ...input, customer_id });
    }),

  mine: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/class_reservations/mine', tags, summary: 'Mis reservaciones: todas, próximas, pasadas o canceladas, 50 por página' } })
    .input(myReservationsInput)
    .output(reservationListOutput)
    .query(({ ctx, input }) => listMyReservations(ctx.db, ctx.customer.customer_id, input)),

  cancel: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/class_reservations/{id}/cancel',
        tags,
        summary: 'Cancela una reservación con las reglas de cancelación; dice si el crédito regresó',
        errorResponses: { 404: 'La reservación no existe', 409: 'Ya estaba cancelada', 412: 'Fuera de tiempo, deshabilitado o sin cancelaciones' },
      },
    })
    .input(reservationIdInput)
    .output(cancelReservationOutput)
    .mutation(async ({ ctx, input }) => {
      const { reservation, creditReturned } = await cancelReservation(ctx.db, {
        reservationId: input.id,
        actor: { customerId: ctx.customer.customer_id, role: ctx.customer.role },
        mode: 'customer',
      });
      return { class_reservation: toReservationOutput(reservation), credit_returned: creditReturned };
    }),

  rate: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/class_reservations/{id}/rating',
        tags,
        summary: 'Califica una clase a la que asististe (una vez)',
        errorResponses: { 404: 'La reservación no existe', 409: 'Ya calificada', 412: 'No asististe o las calificaciones están apagadas' },
      },
    })
    .input(ratingInput)
    .output(reservationResult)
    .mutation(async ({ ctx, input }) => {
      const row = await rateReservation(ctx.db, {
        reservationId: input.id,
        customerId: ctx.customer.customer_id,
        class_stars: input.class_stars,
        coach_stars: input.coach_stars,
        comment: input.comment,
      });
      return { class_reservation: toReservationOutput(row) };
    }),
});
