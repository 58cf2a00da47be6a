import {
  adminReservationListOutput,
  adminReservationResult,
  adminReservationSearchInput,
  cancelReservationOutput,
  classProgressOutput,
  createReservationInput,
  myReservationsInput,
  ratingInput,
  reservationCheckInInput,
  reservationCheckInOutput,
  reservationIdInput,
  reservationListOutput,
  reservationResult,
  staffUpdateReservationInput,
} from '@estudio/core';
import { domainError } from '../errors.ts';
import { getReservationWithCustomer, searchReservationsWithCustomer } from '../services/admin-reservations/search-reservations.ts';
import { staffCancelReservation, staffCheckIn, staffCreateReservation } from '../services/admin-reservations/staff-booking.ts';
import { staffUpdateReservation } from '../services/admin-reservations/staff-update-reservation.ts';
import { messageContextOf } from '../services/messages/message-context.ts';
import { cancelReservation } from '../services/reservations/cancel-reservation.ts';
import { customerClassProgress } from '../services/reservations/class-progress.ts';
import { createReservation } from '../services/reservations/create-reservation.ts';
import { listMyReservations } from '../services/reservations/list-reservations.ts';
import { rateReservation } from '../services/reservations/rate-reservation.ts';
import { toReservationOutput } from '../services/reservations/reservation-output.ts';
import { updateReservation } from '../services/reservations/update-reservation.ts';
import { bookingProcedure, customerProcedure, router, staffProcedure } from '../trpc.ts';

const tags = ['reservations'];
const bookingErrors = {
  404: 'La clase o la reservación no existe',
  409: 'Ya reservaste esta clase o el lugar ya está ocupado',
  412: 'La clase está llena, fuera de horario, sin créditos o con penalización',
};
const isStaff = (role: string) => role === 'staff' || role === 'admin';

export const reservationsRouter = router({
  create: bookingProcedure
    .meta({ openapi: { method: 'POST', path: '/class_reservations', tags, summary: 'Reserva una clase (recepción puede indicar customer_id)', errorResponses: bookingErrors } })
    .input(createReservationInput)
    .output(reservationResult)
    .mutation(async ({ ctx, input }) => {
      const staff = isStaff(ctx.customer.role);
      const customerId = input.customer_id ?? ctx.customer.customer_id;
      if (customerId !== ctx.customer.customer_id && !staff) throw domainError('forbidden');
      const booking = { customerId, singleClassId: input.single_class_id, spot: input.spot, guest: input.guest, guestSpot: input.guest_spot };
      // Staff booking for a customer is an admin write (audited); booking for oneself is not.
      const row =
        customerId !== ctx.customer.customer_id
          ? await staffCreateReservation(ctx.db, booking, { customerId: ctx.customer.customer_id })
          : await createReservation(ctx.db, { ...booking, byStaff: false, firstLook: ctx.firstLook });
      return { class_reservation: toReservationOutput(row) };
    }),

  update: customerProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/class_reservations',
        tags,
        summary: 'Cambia el lugar o el invitado de una reservación; recepción y admin también marcan asistencia y pago',
        errorResponses: bookingErrors,
      },
    })
    .input(staffUpdateReservationInput)
    .output(reservationResult)
    .mutation(async ({ ctx, input }) => {
      if (isStaff(ctx.customer.role)) {
        return { class_reservation: toReservationOutput(await staffUpdateReservation(ctx.db, input, { customerId: ctx.customer.customer_id }, undefined, messageContextOf(ctx.config))) };
      }
      if (input.attend !== undefined || input.is_paid !== undefined) throw domainError('forbidden');
      const row = await updateReservation(ctx.db, {
        reservationId: input.class_reservation_id,
        spot: input.spot,
        guest: input.guest,
        guestSpot: input.guest_spot,
        actor: { customerId: ctx.customer.customer_id, role: ctx.customer.role },
        messages: messageContextOf(ctx.config),
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
      const actor = { customerId: ctx.customer.customer_id, role: ctx.customer.role };
      const { reservation, creditReturned } = isStaff(ctx.customer.role)
        ? await staffCancelReservation(ctx.db, input.id, actor, messageContextOf(ctx.config))
        : await cancelReservation(ctx.db, { reservationId: input.id, actor, mode: 'customer', messages: messageContextOf(ctx.config) });
      return { class_reservation: toReservationOutput(reservation), credit_returned: creditReturned };
    }),

  search: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/class_reservations',
        tags,
        summary: 'Busca reservaciones por clase, cliente, fechas y estado, con su clase y su cliente (un cliente solo ve las suyas)',
      },
    })
    .input(adminReservationSearchInput)
    .output(adminReservationListOutput)
    .query(async ({ ctx, input }) => {
      // A customer's search is always pinned to their own rows, whatever customer_id says.
      const customer_id = isStaff(ctx.customer.role) ? input.customer_id : ctx.customer.customer_id;
      return searchReservationsWithCustomer(ctx.db, { ...input, customer_id });
    }),

  // The QR link's page (/admin/reservaciones/{id}) reads and checks in one reservation.
  byId: staffProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/class_reservations/single/{id}',
        tags,
        summary: 'Una reservación con su clase y su cliente (recepción y admin)',
        errorResponses: { 404: 'La reservación no existe' },
      },
    })
    .input(reservationIdInput)
    .output(adminReservationResult)
    .query(async ({ ctx, input }) => ({ class_reservation: await getReservationWithCustomer(ctx.db, input.id) })),

  checkIn: staffProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/class_reservations/{id}/checkin',
        tags,
        summary: 'Registra la asistencia de una reservación de hoy; repetirlo no cambia nada (recepción y admin)',
        errorResponses: { 404: 'La reservación no existe', 409: 'Reservación o clase cancelada, u otro día' },
      },
    })
    .input(reservationCheckInInput)
    .output(reservationCheckInOutput)
    .mutation(async ({ ctx, input }) => ({
      class_reservation: toReservationOutput(await staffCheckIn(ctx.db, input.id, { customerId: ctx.customer.customer_id })),
    })),

  mine: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/class_reservations/mine', tags, summary: 'Mis reservaciones: todas, próximas, pasadas o canceladas, 50 por página' } })
    .input(myReservationsInput)
    .output(reservationListOutput)
    .query(({ ctx, input }) => listMyReservations(ctx.db, ctx.customer.customer_id, input)),

  progress: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/class_reservations/progress', tags, summary: 'Mi progreso: clases tomadas por mes, semanas seguidas y logros' } })
    .output(classProgressOutput)
    .query(async ({ ctx }) => ({ progress: await customerClassProgress(ctx.db, ctx.customer.customer_id) })),

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
        messages: messageContextOf(ctx.config),
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
