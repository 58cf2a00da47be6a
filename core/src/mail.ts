/** "24 horas", "1 hora", "90 minutos": links live from minutes to a day. */
function duration(minutes: number): string {
  if (minutes % 60 !== 0) return `${minutes} minutos`;
  const hours = minutes / 60;
  return hours === 1 ? '1 hora' : `${hours} horas`;
}

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
  /** To a customer the studio registered at the desk, who signed up or asked for recovery (decision 017). */
  customerClaim: {
    subject: (businessName: string) => `Crea tu contraseña de ${businessName}`,
    body: (businessName: string, link: string, minutes: number) =>
      [
        'Hola:',
        '',
        `El equipo de ${businessName} ya te registró con este correo. Para entrar a tu cuenta en línea (tus clases y créditos están ahí), crea tu contraseña con este enlace (vence en ${duration(minutes)}):`,
        link,
        '',
        'Si no fuiste tú quien lo pidió, ignora este correo; nadie podrá entrar sin abrir este enlace.',
      ].join('\n'),
  },
  emailChange: {
    subject: (businessName: string) => `Confirma tu nuevo correo en ${businessName}`,
    body: (businessName: string, link: string, minutes: number) =>
      [
        'Hola:',
        '',
        `Recibimos una solicitud para usar este correo en tu cuenta de ${businessName}.`,
        `Para confirmarlo, abre este enlace (vence en ${duration(minutes)}):`,
        link,
        '',
        'Si no fuiste tú, ignora este correo; la cuenta seguirá con su correo actual.',
      ].join('\n'),
  },
  videoRating: {
    subject: (businessName: string) => `¿Qué te pareció tu clase online en ${businessName}?`,
    body: (businessName: string, videoName: string, link: string) =>
      [
        'Hola:',
        '',
        `Gracias por tomar "${videoName}" en ${businessName}.`,
        'Califica el video con una a cinco estrellas; tu opinión nos ayuda a preparar mejores clases:',
        link,
      ].join('\n'),
  },
} as const;
