import { describe, expect, it } from 'vitest';
import { privateLinkText, withoutPrivateLinks } from '../../src/messages/private-links.ts';

describe('withoutPrivateLinks', () => {
  it('cuts every link that carries a token, keeping the rest of the message', () => {
    const body = [
      'Hola Mariana, para elegir tu nueva contraseña abre este enlace (vence en 1 hora):',
      'https://estudio.mx/recuperar?token=abc.DEF-123_x',
      'Si no lo pediste, ignora este correo. Dejar de recibir: https://estudio.mx/mensajes/baja?token=zz9&canal=email.',
      'Nuestro sitio: https://estudio.mx/calendario?semana=2026-11-30',
    ].join('\n');
    const shown = withoutPrivateLinks(body);
    expect(shown).not.toContain('abc.DEF-123_x');
    expect(shown).not.toContain('zz9');
    expect(shown).toContain(`abre este enlace (vence en 1 hora):\n${privateLinkText}`);
    expect(shown).toContain('https://estudio.mx/calendario?semana=2026-11-30');
  });

  it('leaves a message without private links as it was', () => {
    expect(withoutPrivateLinks('Tu clase de Yoga es mañana a las 07:00.')).toBe('Tu clase de Yoga es mañana a las 07:00.');
  });
});
