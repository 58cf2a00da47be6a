import {
  authTokens,
  changePasswordInput,
  confirmEmailChangeInput,
  confirmEmailChangeOutput,
  credentialsInput,
  okOutput,
  recoverInput,
  recoverOutput,
  refreshInput,
  requestEmailChangeInput,
  resetPasswordInput,
  signupAuthInput,
} from '@estudio/core';
import { changeOwnPassword } from '../services/auth/change-password.ts';
import { recoverAccount } from '../services/auth/recover-account.ts';
import { authedProcedure, publicProcedure, router } from '../trpc.ts';

const tags = ['auth'];

/**
 * Sign-in of the local provider, answering like Firebase's REST API
 * ({idToken, refreshToken, expiresIn, localId, email}) with Firebase's codes.
 * Under AUTH_PROVIDER=firebase the browser signs in with Firebase, and these
 * answer 400 'auth/operation-not-allowed' (except signOutEverywhere).
 */
export const authRouter = router({
  signup: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/signup', tags, protect: false, summary: 'Crea una identidad con correo y contraseña' } })
    .input(signupAuthInput)
    .output(authTokens)
    .mutation(({ ctx, input }) => ctx.identity.signUp(ctx.db, input)),

  login: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/login', tags, protect: false, summary: 'Inicia sesión con correo y contraseña' } })
    .input(credentialsInput)
    .output(authTokens)
    .mutation(({ ctx, input }) => ctx.identity.signIn(ctx.db, { ...input, ip: ctx.ip })),

  refresh: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/refresh', tags, protect: false, summary: 'Cambia un refresh token por una sesión nueva (rotación)' } })
    .input(refreshInput)
    .output(authTokens)
    .mutation(({ ctx, input }) => ctx.identity.refresh(ctx.db, input.refreshToken)),

  recover: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/recover', tags, protect: false, summary: 'Envía el correo para restablecer la contraseña' } })
    .input(recoverInput)
    .output(recoverOutput)
    .mutation(({ ctx, input }) => recoverAccount(ctx.db, ctx.config, ctx.identity, input.email)),

  resetPassword: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/reset', tags, protect: false, summary: 'Fija una contraseña nueva con el código del correo' } })
    .input(resetPasswordInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.identity.resetPassword(ctx.db, input);
      return { ok: true as const };
    }),

  changePassword: authedProcedure
    .meta({ openapi: { method: 'PUT', path: '/auth/password', tags, summary: 'Cambia la contraseña (con la actual) y cierra las demás sesiones' } })
    .input(changePasswordInput)
    .output(authTokens)
    .mutation(({ ctx, input }) => changeOwnPassword(ctx.db, ctx.identity, ctx.caller, input, ctx.ip)),

  requestEmailChange: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/email', tags, summary: 'Envía al correo nuevo el enlace que confirma el cambio de correo' } })
    .input(requestEmailChangeInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.identity.requestEmailChange(ctx.db, ctx.caller.uid, input);
      return { ok: true as const };
    }),

  confirmEmailChange: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/email/confirm', tags, protect: false, summary: 'Cambia el correo con el código del correo y cierra todas las sesiones' } })
    .input(confirmEmailChangeInput)
    .output(confirmEmailChangeOutput)
    .mutation(async ({ ctx, input }) => ({ ok: true as const, email: await ctx.identity.confirmEmailChange(ctx.db, input.token) })),

  signOutEverywhere: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/logout', tags, summary: 'Revoca todos los refresh tokens de la cuenta' } })
    .output(okOutput)
    .mutation(async ({ ctx }) => {
      await ctx.identity.revokeAll(ctx.db, ctx.caller.uid);
      return { ok: true as const };
    }),
});
