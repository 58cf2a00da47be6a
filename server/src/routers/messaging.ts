import { messagingChannelsOutput, messagingSettingsOutput, messagingSettingsUpdateInput, messagingTestInput, messagingTestOutput } from '@estudio/core';
import { getMessagingSettings, sendTestMessage, updateMessagingSettings } from '../services/messages/messaging-settings.ts';
import { messagingChannels } from '../services/messages/channels.ts';
import { adminProcedure, publicProcedure, router } from '../trpc.ts';

const tags = ['messaging'];

/** How the studio sends e-mail (SMTP) and WhatsApp (Cloud API); secrets are written, never read back. */
export const messagingRouter = router({
  // Decision 079: whether the studio can send e-mail or WhatsApp at all, so no screen says a message went when it waits.
  channels: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/messaging/channels', tags, protect: false, summary: 'Si el estudio puede enviar correos y WhatsApp' } })
    .output(messagingChannelsOutput)
    .query(({ ctx }) => messagingChannels(ctx.db, ctx.config)),

  settings: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/messaging/settings', tags, summary: 'Configuración de mensajes: SMTP y WhatsApp, sin contraseña ni token (admin)' } })
    .output(messagingSettingsOutput)
    .query(({ ctx }) => getMessagingSettings(ctx.db, ctx.config)),

  updateSettings: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/messaging/settings',
        tags,
        summary: "Cambia la configuración de mensajes; '' borra un campo (vuelve al del servidor). La contraseña y el token solo se escriben (admin)",
      },
    })
    .input(messagingSettingsUpdateInput)
    .output(messagingSettingsOutput)
    .mutation(({ ctx, input }) => updateMessagingSettings(ctx.db, ctx.config, { customerId: ctx.customer.customer_id }, input)),

  sendTest: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/messaging/test',
        tags,
        summary: "Envía ahora un mensaje de prueba por correo o WhatsApp (plantilla 'hello_world') (admin)",
        errorResponses: { 409: 'El canal no está configurado', 502: 'El proveedor rechazó el mensaje; el motivo va en el mensaje' },
      },
    })
    .input(messagingTestInput)
    .output(messagingTestOutput)
    .mutation(({ ctx, input }) => sendTestMessage(ctx.db, ctx.config, input)),
});
