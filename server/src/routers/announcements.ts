import { announcementCreateInput, announcementOneOutput, announcementsListOutput, announcementUpdateInput, idInput, removedOutput } from '@estudio/core';
import {
  createAnnouncement,
  getAnnouncement,
  listAnnouncements,
  removeAnnouncement,
  updateAnnouncement,
} from '../services/announcements/announcements.ts';
import { adminProcedure, optionalAuthProcedure, router } from '../trpc.ts';

const tags = ['announcements'];

/** Public reads (hidden announcements only for admins); admin writes. Clients say 'Aviso guardado.' / 'Aviso eliminado.' (the spec's 'Announcement saved.', in Spanish). */
export const announcementsRouter = router({
  list: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/announcements', tags, protect: false, summary: 'Avisos, del más reciente al más antiguo' } })
    .output(announcementsListOutput)
    .query(async ({ ctx }) => ({ announcements: await listAnnouncements(ctx.db, ctx.caller?.role === 'admin') })),

  byId: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/announcements/{id}', tags, protect: false, summary: 'Un aviso' } })
    .input(idInput)
    .output(announcementOneOutput)
    .query(async ({ ctx, input }) => ({ announcement: await getAnnouncement(ctx.db, input.id, ctx.caller?.role === 'admin') })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/announcements', tags, summary: 'Crea un aviso (admin)' } })
    .input(announcementCreateInput)
    .output(announcementOneOutput)
    .mutation(async ({ ctx, input }) => ({ announcement: await createAnnouncement(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/announcements', tags, summary: 'Actualiza un aviso (admin)' } })
    .input(announcementUpdateInput)
    .output(announcementOneOutput)
    .mutation(async ({ ctx, input: { announcement_id, ...changes } }) => ({
      announcement: await updateAnnouncement(ctx.db, announcement_id, changes),
    })),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/announcements/{id}', tags, summary: 'Elimina un aviso (admin)' } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeAnnouncement(ctx.db, input.id)),
});
