import { roomCreateInput, roomIdInput, roomOneOutput, roomsInput, roomsOutput, roomUpdateInput } from '@estudio/core';
import { createRoom, listRooms, removeRoom, updateRoom } from '../services/catalogue/rooms.ts';
import { adminProcedure, router } from '../trpc.ts';

const tags = ['catalogue'];

/** Decision 140: the rooms of a location, each with its seat map and capacity. */
export const roomsRouter = router({
  list: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/rooms', tags, summary: 'Los salones de una sucursal (admin)' } })
    .input(roomsInput)
    .output(roomsOutput)
    .query(({ ctx, input }) => listRooms(ctx.db, input.location_id)),
  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/rooms', tags, summary: 'Agrega un salón a una sucursal (admin)', errorResponses: { 404: 'La sucursal no existe', 409: 'La sucursal ya tiene un salón con ese nombre' } } })
    .input(roomCreateInput)
    .output(roomOneOutput)
    .mutation(({ ctx, input }) => createRoom(ctx.db, input, ctx.customer.customer_id)),
  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/rooms', tags, summary: 'Actualiza un salón; su cupo no baja del de una clase por venir en él (admin)', errorResponses: { 404: 'El salón no existe' } } })
    .input(roomUpdateInput)
    .output(roomOneOutput)
    .mutation(({ ctx, input }) => updateRoom(ctx.db, input, ctx.customer.customer_id)),
  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/rooms/{room_id}', tags, summary: 'Quita un salón sin clases por venir (admin)', errorResponses: { 404: 'El salón no existe', 409: 'El salón tiene clases por venir' } } })
    .input(roomIdInput)
    .output(roomOneOutput)
    .mutation(({ ctx, input }) => removeRoom(ctx.db, input.room_id, ctx.customer.customer_id)),
});
