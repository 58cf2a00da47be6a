import { describe, expect, it } from 'vitest';
import { DomainError, domainErrors, z } from '../src/index.ts';

describe('domain errors', () => {
  it('carry the status and Spanish message of the catalogue', () => {
    const error = new DomainError('customer/phone-taken');
    expect(error.status).toBe(409);
    expect(error.message).toBe('Ya existe una cuenta con ese número de teléfono');
  });

  it('have an HTTP error status and a message for every code', () => {
    for (const [code, { status, message }] of Object.entries(domainErrors)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(message.length, code).toBeGreaterThan(5);
    }
  });

  it('validation messages are Spanish for people in every package that imports z from core', () => {
    expect(z.number().safeParse('x').error?.issues[0]?.message).toBe('Debe ser un número.');
  });
});
