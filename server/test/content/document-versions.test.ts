import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { accepted_page, page } from '@estudio/db/schema/content';
import { missingRequiredDocuments } from '../../src/services/customer/accept-documents.ts';
import { acceptDocumentsAtDesk } from '../../src/services/desk/accept-documents-at-desk.ts';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/**
 * A required page has versions (decision 122): the privacy notice's new text is published as the next version, and
 * everyone who accepted an earlier one is asked again; each acceptance records the version accepted.
 */
let server: TestServer;
let admin: string;
let cliente: string;
let recepcion: string;
let clienteId: number;
demoStudio(['admin', 'cliente', 'recepcion'], (s) => ({ server, tokens: { admin, cliente, recepcion } } = s));

let privacy: { page_id: number; version: number; title: string };
beforeAll(async () => {
  clienteId = await customerId(server.db, 'cliente@estudio.demo');
  const pages = (await call(server.app, 'GET', '/api/pages')).body.pages as { page_id: number; slug: string; required: boolean; version: number; title: string }[];
  const found = pages.find((p) => p.slug === 'aviso-de-privacidad');
  if (!found) throw new Error('the demo has its privacy notice');
  // Mexico's law: the notice is required from the start, and the demo's customer accepted it at sign-up.
  expect(found.required).toBe(true);
  expect(await missingRequiredDocuments(server.db, clienteId)).toEqual([]);
  privacy = found;
}, 60_000);

const pending = async (token: string) => {
  const pages = (await call(server.app, 'GET', '/api/pages')).body.pages as { page_id: number; required: boolean; version: number }[];
  const accepted = (await call(server.app, 'GET', '/api/accepted_pages', { token })).body.accepted_pages as { page_id: number; version: number }[];
  return pages.filter((p) => p.required && !accepted.some((a) => a.page_id === p.page_id && a.version === p.version)).map((p) => p.page_id);
};

describe('a required page published as a new version', () => {
  it('a save without it keeps the version: a typo fixed asks nobody again', async () => {
    expect(privacy.version).toBe(1);
    const fixed = await call(server.app, 'PUT', '/api/pages', { token: admin, body: { page_id: privacy.page_id, title: privacy.title } });
    expect(fixed.status, fixed.raw).toBe(200);
    expect(fixed.body.page.version).toBe(1);
    expect(await pending(cliente)).not.toContain(privacy.page_id);
  });

  it('publishing the next version makes it pending for whoever accepted the earlier one; accepting records the version read', async () => {
    const published = await call(server.app, 'PUT', '/api/pages', {
      token: admin,
      body: { page_id: privacy.page_id, content: '<h2>Aviso de privacidad</h2><p>Texto nuevo, conforme a la ley vigente.</p>', new_version: true },
    });
    expect(published.status, published.raw).toBe(200);
    expect(published.body.page).toMatchObject({ page_id: privacy.page_id, version: 2 });
    const [stored] = await server.db.select({ version: page.version }).from(page).where(eq(page.page_id, privacy.page_id));
    expect(stored?.version).toBe(2);

    expect(await pending(cliente)).toContain(privacy.page_id);
    expect(await missingRequiredDocuments(server.db, clienteId)).toContain(privacy.page_id);

    // She read version 1 in a tab left open: accepting it now is refused, in Spanish; nothing is recorded.
    const stale = await call(server.app, 'POST', '/api/accepted_pages', { token: cliente, body: { page_id: privacy.page_id, version: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ code: 'page/new-version', message: 'Este documento acaba de cambiar. Lee la versión nueva antes de aceptarla.' });
    expect(await pending(cliente)).toContain(privacy.page_id);

    const accepted = await call(server.app, 'POST', '/api/accepted_pages', { token: cliente, body: { page_id: privacy.page_id, version: 2 } });
    expect(accepted.status, accepted.raw).toBe(200);
    expect(accepted.body.accepted_page).toMatchObject({ page_id: privacy.page_id, customer_id: clienteId, version: 2 });
    expect(await pending(cliente)).not.toContain(privacy.page_id);
    // Both acceptances stay: the record of what she agreed to, and when.
    const rows = await server.db
      .select({ version: accepted_page.version })
      .from(accepted_page)
      .where(and(eq(accepted_page.customer_id, clienteId), eq(accepted_page.page_id, privacy.page_id)));
    expect(rows.map((r) => r.version).sort()).toEqual([1, 2]);
    // Accepting again answers the same acceptance.
    const again = await call(server.app, 'POST', '/api/accepted_pages', { token: cliente, body: { page_id: privacy.page_id } });
    expect(again.body.accepted_page.accepted_page_id).toBe(accepted.body.accepted_page.accepted_page_id);
  });

  it('a sign-up and a walk-in registered at the counter accept the current version', async () => {
    const identity = await call(server.app, 'POST', '/api/auth/signup', { body: { email: 'version.nueva@correo.mx', password: 'Version2026!' } });
    const required = ((await call(server.app, 'GET', '/api/pages')).body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
    const signedUp = await call(server.app, 'POST', '/api/customer/signup', {
      token: identity.body.idToken,
      body: { name: 'Olga', last_name: 'Versión', email: 'version.nueva@correo.mx', phone: '5544556601', accepted_page_ids: required },
    });
    expect(signedUp.status, signedUp.raw).toBe(200);
    expect(await pending(identity.body.idToken)).toEqual([]);

    const walkIn = await call(server.app, 'POST', '/api/customer', {
      token: recepcion,
      body: { name: 'Rita', last_name: 'Mostrador', email: 'rita.version@correo.mx', phone: '5544556602', accepted_page_ids: required },
    });
    expect(walkIn.status, walkIn.raw).toBe(200);
    const rows = await server.db.select().from(accepted_page).where(and(eq(accepted_page.customer_id, walkIn.body.customer.customer_id), eq(accepted_page.page_id, privacy.page_id)));
    expect(rows.map((r) => r.version)).toEqual([2]);
  });

  it('the counter records the version staff showed: a newer one published while the desk was offline stays pending', async () => {
    const required = ((await call(server.app, 'GET', '/api/pages')).body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
    const walkIn = await call(server.app, 'POST', '/api/customer', {
      token: recepcion,
      body: { name: 'Sara', last_name: 'Desconectada', email: 'sara.version@correo.mx', phone: '5544556603', accepted_page_ids: required },
    });
    expect(walkIn.status, walkIn.raw).toBe(200);
    const saraId = walkIn.body.customer.customer_id as number;
    const staffId = await customerId(server.db, 'recepcion@estudio.demo');
    // She accepted version 2 when registered. The desk showed version 2 again; version 3 reached the server before
    // the desk's push: her acceptance is of the text she was shown, and version 3 stays pending.
    const third = await call(server.app, 'PUT', '/api/pages', { token: admin, body: { page_id: privacy.page_id, new_version: true } });
    expect(third.body.page.version).toBe(3);
    await acceptDocumentsAtDesk(server.db, { customer_id: staffId }, { customer_id: saraId, page_ids: [privacy.page_id], versions_read: [{ page_id: privacy.page_id, version: 2 }] });
    const rows = await server.db.select({ version: accepted_page.version }).from(accepted_page).where(and(eq(accepted_page.customer_id, saraId), eq(accepted_page.page_id, privacy.page_id)));
    expect(rows.map((r) => r.version)).toEqual([2]);
    expect(await missingRequiredDocuments(server.db, saraId)).toContain(privacy.page_id);
    // Shown the current text, it is the current version; a version never published is not recorded as read.
    await acceptDocumentsAtDesk(server.db, { customer_id: staffId }, { customer_id: saraId, page_ids: [privacy.page_id], versions_read: [{ page_id: privacy.page_id, version: 9 }] });
    expect(await missingRequiredDocuments(server.db, saraId)).not.toContain(privacy.page_id);
    const after = await server.db.select({ version: accepted_page.version }).from(accepted_page).where(and(eq(accepted_page.customer_id, saraId), eq(accepted_page.page_id, privacy.page_id)));
    expect(after.map((r) => r.version).sort()).toEqual([2, 3]);
  });

  it('only the owner publishes a version; a version that is not true or false is refused naming it', async () => {
    const staff = await call(server.app, 'PUT', '/api/pages', { token: recepcion, body: { page_id: privacy.page_id, new_version: true } });
    expect(staff.status).toBe(403);
    const bad = await call(server.app, 'PUT', '/api/pages', { token: admin, body: { page_id: privacy.page_id, new_version: 'sí' } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('new_version');
    const [stored] = await server.db.select({ version: page.version }).from(page).where(eq(page.page_id, privacy.page_id));
    expect(stored?.version).toBe(3);
  });
});
