import { okOutput, reservationIdInput, standingBookingInput, standingBookingResult, standingBookingsOutput } from '@estudio/core';
import { endStandingBooking } from '../services/standing/end-standing-booking.ts';
import { listStandingBookings } from '../services/standing/list-standing-bookings.ts';
import { startStandingBooking } from '../services/standing/start-standing-booking.ts';
import { customerProcedure, router } from '../trpc.ts';

const tags = ['reservations'];

/** "Reservar cada semana" (decision 105): a customer's weekly places. */
export const standingBookingsRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/standing_bookings', tags, summary: 'Mis clases de cada semana, con lo que pasó con cada semana próxima' } })
    .output(standingBookingsOutput)
    .query(async ({ ctx }) => ({ standing_bookings: await listStandingBookings(ctx.db, ctx.customer.customer_id) })),

  start: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/standing_bookings',
        tags,
        summary: 'Reserva cada semana el horario de una clase (disciplina, sede, día y hora); cada semana se reserva con las reglas de siempre',
        errorResponses: { 404: 'La clase no existe', 412: 'Clase especial, pasada o cancelada' },
      },
    })
    .input(standingBookingInput)
    .output(standingBookingResult)
    .mutation(async ({ ctx, input }) => ({
      standing_booking: await startStandingBooking(ctx.db, { customerId: ctx.customer.customer_id, singleClassId: input.single_class_id, spot: input.spot }),
    })),

  end: customerProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/standing_bookings/{id}',
        tags,
        summary: 'Deja de reservar cada semana (las reservaciones ya hechas se quedan)',
        errorResponses: { 404: 'No encontramos esta reservación semanal.' },
      },
    })
    .input(reservationIdInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await endStandingBooking(ctx.db, ctx.customer.customer_id, input.id);
      return { ok: true as const };
    }),
});
