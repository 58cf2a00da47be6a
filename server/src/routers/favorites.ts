import { favoriteAddInput, favoriteOneOutput, favoriteRemoveInput, favoritesListOutput, okOutput } from '@estudio/core';
import { addFavorite, listFavorites, removeFavorite } from '../services/videos/favorites.ts';
import { requireOnlineAccess } from '../services/videos/online-access.ts';
import { customerProcedure, router } from '../trpc.ts';

const tags = ['videos'];
const membership = { 412: 'Lo sentimos, no cuentas con una membresía activa para clases online' };

export const favoritesRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/favorites', tags, summary: 'Mis videos favoritos (requiere membresía online)', errorResponses: membership } })
    .output(favoritesListOutput)
    .query(async ({ ctx }) => {
      await requireOnlineAccess(ctx.db, { customerId: ctx.customer.customer_id, role: ctx.customer.role });
      return { favorites: await listFavorites(ctx.db, ctx.customer.customer_id) };
    }),

  add: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/favorites',
        tags,
        summary: 'Agrega un video a favoritos (agregarlo otra vez devuelve el mismo favorito)',
        errorResponses: { 404: 'Lo sentimos, no hemos encontrado este video.', ...membership },
      },
    })
    .input(favoriteAddInput)
    .output(favoriteOneOutput)
    .mutation(async ({ ctx, input }) => {
      const viewer = { customerId: ctx.customer.customer_id, role: ctx.customer.role };
      await requireOnlineAccess(ctx.db, viewer);
      return { favorite: await addFavorite(ctx.db, input.video_id, viewer) };
    }),

  remove: customerProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/favorites/{id}',
        tags,
        summary: 'Quita un favorito propio por favorite_id (o por video_id con ?by=video)',
        errorResponses: { 404: 'No encontramos este favorito.' },
      },
    })
    .input(favoriteRemoveInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await removeFavorite(ctx.db, ctx.customer.customer_id, input.id, input.by);
      return { ok: true as const };
    }),
});
