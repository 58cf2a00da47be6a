/** Texts of the messages the server writes to the outbox. */
export const mailTexts = {
  passwordReset: {
    subject: (businessName: string) => `Restablece tu contraseña de ${businessName}`,
    body: (businessName: string, link: string, minutes: number) =>
      [
        'Hola:',
        '',
        `Recibimos una solicitud para restablecer la contraseña de tu cuenta en ${businessName}.`,
        `Para elegir una nueva contraseña, abre este enlace (vence en ${minutes} minutos):`,
        link,
        '',
        'Si no fuiste tú, ignora este correo; tu contraseña no cambiará.',
      ].join('\n'),
  },
} as const;
