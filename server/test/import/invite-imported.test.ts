import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { activityWhat } from '@estudio/core';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { inviteCustomers } from '../../src/services/import/invite-imported.ts';
import { anonymiseCustomer } from '../../src/services/privacy/anonymise-customer.ts';
import { call, login, testConfig, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/**
 * "Crea tu contraseña" for the customers the studio brought over from another system (decision 128): queued through
 * the outbox in runs the owner limits, each customer once, never to a deleted or anonymised one nor to someone with a
 * password, with the claim path's link, which creates her password; refused while the studio sends no e-mail.
 */
let server: TestServer;
let recepcion: string;
demoStudio(['recepcion'], (s) => ({ server, tokens: { recepcion } } = s));

/** The studio with e-mail set up (the same database): where the invitations can be run. */
let mailing: FastifyInstance;
let admin: string;
let adminId: number;
const tag = String(Date.now()).slice(-6);
const emails = Array.from({ length: 6 }, (_, i) => `invitada${i + 1}.${tag}@correo.mx`);
const ids = new Map<string, number>();
const mailConfig = testConfig({ SMTP_HOST: 'smtp.estudio.test' });

beforeAll(async () => {
  mailing = await server.withConfig({ SMTP_HOST: 'smtp.estudio.test' });
  admin = (await login(mailing, 'admin@estudio.demo')).idToken;
  adminId = await customerId(server.db, 'admin@estudio.demo');
  const csv = ['Nombre;Apellidos;Correo electrónico', ...emails.map((email, i) => `Invitada ${i + 1};Importada;${email}`)].join('\r\n');
  const imported = await call(mailing, 'POST', '/api/import/customers', { token: admin, body: { csv, dry_run: false } });
  expect(imported.status, imported.raw).toBe(200);
  for (const line of imported.body.lines as { email: string; customer_id: number }[]) ids.set(line.email, line.customer_id);
  expect(ids.size).toBe(emails.length);
});

const invitationsOf = (customerIds: number[]) =>
  server.db
    .select()
    .from(outbox_message)
    .where(and(eq(outbox_message.kind, 'customer-invitation'), inArray(outbox_message.customer_id, customerIds)));
const allInvitations = () => server.db.select().from(outbox_message).where(eq(outbox_message.kind, 'customer-invitation'));
const preview = async (app: FastifyInstance, query = '') => {
  const res = await call(app, 'GET', `/api/import/invitations${query}`, { token: admin });
  expect(res.status, res.raw).toBe(200);
  return res.body as { waiting: number; invited: number; already_invited: number; email_configured: boolean };
};
const invite = (body: Record<string, unknown>, app = mailing, token = admin) => call(app, 'POST', '/api/import/invitations', { token, body });

describe('inviting imported customers to create their password', () => {
  it('with no e-mail channel: the count still answers, the run is refused in Spanish and nothing is queued', async () => {
    const counts = await preview(server.app);
    expect(counts).toMatchObject({ email_configured: false, already_invited: 0 });
    expect(counts.waiting).toBeGreaterThanOrEqual(emails.length);
    const refused = await invite({ limit: 10 }, server.app);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'customer-invitation/no-email-channel',
      message: 'Este estudio todavía no envía correos: configura el envío de correo en la sección Mensajes antes de invitar a tus clientes. No se preparó ninguna invitación.',
    });
    expect(await allInvitations()).toEqual([]);
  });

  it('is the owner’s: reception may neither count nor invite', async () => {
    expect((await call(mailing, 'GET', '/api/import/invitations', { token: recepcion })).status).toBe(403);
    expect((await invite({ limit: 1 }, mailing, recepcion)).status).toBe(403);
    expect(await allInvitations()).toEqual([]);
  });

  it('never mails a deleted or an anonymised customer, nor one who has a password', async () => {
    const [gone, forgotten] = [ids.get(emails[4]!)!, ids.get(emails[5]!)!];
    await server.db.update(customer).set({ deletedAt: new Date() }).where(eq(customer.customer_id, gone));
    await anonymiseCustomer(server.db, forgotten, new Date());
    const counts = await preview(mailing);
    const queued = await invite({ limit: 1000 });
    expect(queued.status, queued.raw).toBe(200);
    expect(queued.body).toMatchObject({ invited: counts.waiting, waiting: 0, email_configured: true });
    expect(await invitationsOf([gone, forgotten, await customerId(server.db, 'cliente@estudio.demo')])).toEqual([]);
    // The run above invited everyone waiting (the demo's desk customers too); the limit is tested on new ones below.
    const four = emails.slice(0, 4).map((e) => ids.get(e)!);
    const rows = await invitationsOf(four);
    expect(rows.map((r) => r.recipient).sort()).toEqual(emails.slice(0, 4).sort());
    for (const row of rows) {
      expect(row).toMatchObject({ channel: 'email', status: 'pending', subject: 'Crea tu contraseña de Estudio Demo' });
      expect(row.body).toContain('Crear mi contraseña: http://estudio.test/recuperar?token=');
      expect(row.body).toContain('vence en 7 días');
    }
  });

  it('a second run invites nobody new, and the count says they were invited', async () => {
    const before = (await allInvitations()).length;
    const again = await invite({});
    expect(again.body).toMatchObject({ invited: 0, waiting: 0 });
    expect(again.body.already_invited).toBeGreaterThanOrEqual(4);
    expect(await allInvitations()).toHaveLength(before);
  });

  it('respects the limit: 5 new customers, 2 and then 3, each run in batches with its line in the activity log', async () => {
    const csv = ['Nombre;Apellidos;Correo electrónico', ...[1, 2, 3, 4, 5].map((i) => `Lote ${i};Importada;lote${i}.${tag}@correo.mx`)].join('\r\n');
    const imported = await call(mailing, 'POST', '/api/import/customers', { token: admin, body: { csv, dry_run: false } });
    const fresh = (imported.body.lines as { customer_id: number }[]).map((l) => l.customer_id);
    expect(await preview(mailing, '?limit=2')).toMatchObject({ waiting: 5, invited: 2, email_configured: true });

    const logged = async () => (await server.db.select().from(audit_log).where(eq(audit_log.action, 'customer.invite'))).length;
    const linesBefore = await logged();
    const two = await invite({ limit: 2 });
    expect(two.body).toMatchObject({ invited: 2, waiting: 3 });
    expect(await invitationsOf(fresh)).toHaveLength(2);
    expect(await logged()).toBe(linesBefore + 1);

    // The same through the service with batches of two: three transactions for five, one line each.
    const rest = await inviteCustomers(server.db, mailConfig, { customer_id: adminId }, { limit: 1000 }, { batchSize: 2 });
    expect(rest).toMatchObject({ invited: 3, waiting: 0 });
    expect(await invitationsOf(fresh)).toHaveLength(5);
    const lines = await server.db.select().from(audit_log).where(eq(audit_log.action, 'customer.invite'));
    expect(lines).toHaveLength(linesBefore + 3);
    expect(lines.slice(-2).map((l) => (l.changes as { invited: number }).invited)).toEqual([2, 1]);
    expect(lines.at(-1)).toMatchObject({ customer_id: adminId, entity: 'customer' });
    // Actividad says it as the owner reads it.
    const last = lines.at(-1)!;
    expect(activityWhat({ entity: last.entity, action: last.action, entityId: null, changes: last.changes, actor: null, customerName: null })).toBe('invitó a 1 cliente a crear su contraseña');
  });

  it('the link in the message creates her password and opens the account the studio made for her', async () => {
    const email = emails[0]!;
    const [row] = await invitationsOf([ids.get(email)!]);
    const token = decodeURIComponent(/recuperar\?token=([^\s"&]+)/.exec(row!.body)![1]!);
    const reset = await call(mailing, 'POST', '/api/auth/reset', { body: { token, password: 'Invitada-2026!' } });
    expect(reset.status, reset.raw).toBe(200);
    const session = await login(mailing, email, 'Invitada-2026!');
    const me = await call(mailing, 'GET', '/api/customer', { token: session.idToken });
    expect(me.body.customer).toMatchObject({ customer_id: ids.get(email), email, name: 'Invitada 1' });
    // Staff read the invitation in Mensajes without the link that signs in as her (decision 068).
    const list = await call(mailing, 'GET', '/api/outbox', { token: admin });
    expect(list.raw).not.toContain(encodeURIComponent(token));
    expect(list.status).toBe(200);
    expect(list.raw).not.toContain(token);
    // Spent: the link works once.
    expect((await call(mailing, 'POST', '/api/auth/reset', { body: { token, password: 'Otra-Clave-2026!' } })).status).toBe(400);
  });

  it('asked to resend, invites again only those invited long enough ago who still have no password', async () => {
    const later = new Date(Date.now() + 15 * 24 * 60 * 60_000);
    const early = await inviteCustomers(server.db, mailConfig, { customer_id: adminId }, { limit: 1000, resend_after_days: 30 }, { now: later });
    expect(early.invited).toBe(0);
    const again = await inviteCustomers(server.db, mailConfig, { customer_id: adminId }, { limit: 1000, resend_after_days: 14 }, { now: later });
    expect(again.invited).toBeGreaterThanOrEqual(3);
    // She created her password: she is not invited again; the others now have two invitations each.
    expect(await invitationsOf([ids.get(emails[0]!)!])).toHaveLength(1);
    for (const email of emails.slice(1, 4)) expect(await invitationsOf([ids.get(email)!])).toHaveLength(2);
  });
});
