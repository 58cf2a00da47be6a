import { currentUserOutput } from '@estudio/core';
import { currentUserOf } from '../services/auth/current-user.ts';
import { authedProcedure, router } from '../trpc.ts';

export const usersRouter = router({
  current: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/users', tags: ['auth'], summary: 'Quién inició sesión y su rol (user.role)' } })
    .output(currentUserOutput)
    .query(({ ctx }) => currentUserOf(ctx.caller)),
});
