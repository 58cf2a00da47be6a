import { describe, expect, it } from 'vitest';
import { errorText, fieldErrorText } from '../src/renderer/src/format.ts';

describe('the desk shows refusals without API keys', () => {
  it("'Revisa el campo phone: …' reads 'Teléfono: …' alone and the bare message under the field", () => {
    const error = Object.assign(new Error('Revisa el campo phone: Escribe el teléfono del cliente.'), { data: { field: 'phone' } });
    expect(errorText(error)).toBe('Teléfono: Escribe el teléfono del cliente.');
    expect(fieldErrorText(error, 'phone')).toBe('Escribe el teléfono del cliente.');
  });

  it('a message without a field is shown as the server wrote it', () => {
    expect(errorText(new Error('Descuento no encontrado.'))).toBe('Descuento no encontrado.');
    expect(errorText(null)).toBe('Algo salió mal. Inténtalo de nuevo.');
  });
});
