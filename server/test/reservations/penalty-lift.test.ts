import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { class_reservation_penalty } from '@estudio/db/schema/reservations';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/**
 * An administrator lifts a customer's penalty before it ends, with a reason
 * kept in Actividad (both drivers); Recepción cannot, a missing reason and a
 * penalty already over are refused in Spanish, and nothing changes.
 */
let server: TestServer;
let admin: string;
let recepcion: string;
let ilimitadoId: number;
let adminId: number;
demoStudio(['admin', 'recepcion'], (s) => ({ server, tokens: { admin, recepcion } } = s));
beforeAll(async () => {
  ilimitadoId = await customerId(server.db, 'ilimitado@estudio.demo');
  adminId = await customerId(server.db, 'admin@estudio.demo');
}, 120_000);

const lift = (token: string, id: number, body: Record<string, unknown>) => call(server.app, 'PUT', `/api/class_reservation_penaltys/${id}/lift`, { token, body });

describe('PUT /api/class_reservation_penaltys/{id}/lift', () => {
  it('lifts an active penalty with the reason in Actividad; a second time is a 409; Recepción and no reason are refused', async () => {
    const [penalty] = await server.db
      .insert(class_reservation_penalty)
      .values({ customer_id: ilimitadoId, start_date: new Date(Date.now() - 86_400_000), end_date: new Date(Date.now() + 3 * 86_400_000), no_shows: 3 })
      .returning();
    const id = penalty!.class_reservation_penalty_id;
    const byReception = await lift(recepcion, id, { reason: 'Se enfermó, trajo justificante.' });
    expect(byReception.status).toBe(403);
    const noReason = await lift(admin, id, { reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe('Escribe el motivo (al menos 3 letras): queda registrado en Actividad con tu nombre.');
    const unknown = await lift(admin, id, { reason: 'Justificante médico.', until: 'mañana' });
    expect(unknown.status).toBe(400);
    expect(unknown.raw).toContain('until');
    expect((await server.db.select().from(class_reservation_penalty).where(eq(class_reservation_penalty.class_reservation_penalty_id, id)))[0]?.deletedAt).toBeNull();

    const lifted = await lift(admin, id, { reason: 'Justificante médico de las tres faltas.' });
    expect(lifted.status, lifted.raw).toBe(200);
    expect(lifted.body.class_reservation_penalty).toMatchObject({ class_reservation_penalty_id: id });
    const [row] = await server.db.select().from(class_reservation_penalty).where(eq(class_reservation_penalty.class_reservation_penalty_id, id));
    expect(row?.deletedAt).not.toBeNull();
    const [audit] = await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.action, 'penalty.lift'), eq(audit_log.entity_id, String(ilimitadoId))))
      .orderBy(desc(audit_log.audit_log_id))
      .limit(1);
    expect(audit).toMatchObject({ customer_id: adminId, changes: { class_reservation_penalty_id: id, reason: 'Justificante médico de las tres faltas.', no_shows: 3 } });
    const activity = await call(server.app, 'GET', `/api/customer/${ilimitadoId}/activity`, { token: admin });
    expect(activity.raw).toContain('quitó la penalización de');
    expect(activity.raw).toContain('motivo: Justificante médico de las tres faltas.');

    const again = await lift(admin, id, { reason: 'Otra vez.' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Esta penalización ya no está activa: terminó o alguien ya la quitó.');
    expect((await lift(admin, 999_999, { reason: 'No existe.' })).status).toBe(404);
  });
});
