import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { DomainError, domainErrors, staffErrorMessages } from '@estudio/core';
import { errorBody } from '../src/service/router.ts';
import { ServerAnswerError } from '../src/service/server-proxy.ts';

/**
 * Staff read refusals about the customer, not to them:
 * the desk's answers never say 'tus créditos' or 'tu invitado'.
 */
const shown = (cause: DomainError) => errorBody(new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause })).message;
const speaksToCustomer = /\b(tus?|tienes|has|estás|puedes|alcanzaste)\b/i;

describe('desk error texts', () => {
  it('speaks of the customer where the catalogue speaks to them', () => {
    expect(shown(new DomainError('booking/no-credits'))).toBe('El cliente no tiene créditos para esta clase. Véndele un paquete o regístralo con pago en efectivo.');
    expect(shown(new DomainError('booking/guest-name'))).toBe('Escribe el nombre del invitado.');
    // A refusal the server sent back says the same.
    expect(shown(new ServerAnswerError(new DomainError('booking/no-credits'), undefined))).toMatch(/^El cliente no tiene créditos/);
  });

  it('leaves no booking, cancellation or waitlist refusal in the customer’s voice', () => {
    const codes = Object.keys(domainErrors).filter((c) => /^(booking|reservation|waitlist)\//.test(c)) as (keyof typeof domainErrors)[];
    for (const code of codes) expect(shown(new DomainError(code)), code).not.toMatch(speaksToCustomer);
    for (const message of Object.values(staffErrorMessages)) expect(message).not.toMatch(speaksToCustomer);
  });

  it('keeps other messages as they are', () => {
    expect(shown(new DomainError('desk/signed-out'))).toBe(domainErrors['desk/signed-out'].message);
  });
});
