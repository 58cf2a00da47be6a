import { and, count, eq, isNull, lt, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { class_category, class_type, instructor } from '@estudio/db/schema/catalogue';
import { accepted_page, page } from '@estudio/db/schema/content';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * Deletes that would silently lose what others rely on are refused with a
 * Spanish 409 and change nothing: the required 'Términos y
 * condiciones' page and its acceptances, a class category its class types use,
 * a coach who teaches classes still to come. Before the admin
 * confirms, `GET …/{id}/removal` says what the delete will do and why, in the
 * same words the delete answers with (decision 035).
 */

let server: TestServer;
let admin: string;
demoStudio(['admin'], (s) => ({ server, tokens: { admin } } = s));

const acceptances = async (pageId: number) =>
  Number((await server.db.select({ n: count() }).from(accepted_page).where(eq(accepted_page.page_id, pageId)))[0]?.n ?? 0);

describe('deleting a page', () => {
  it("refuses the required 'Términos y condiciones' with a 409 and keeps every acceptance", async () => {
    const [terms] = await server.db.select().from(page).where(eq(page.title, 'Términos y condiciones'));
    expect(terms?.required).toBe(true);
    const id = terms!.page_id;
    const accepted = await acceptances(id);
    expect(accepted, 'the demo seed has customers who accepted the terms').toBeGreaterThan(0);

    const preview = await call(server.app, 'GET', `/api/pages/${id}/removal`, { token: admin });
    expect(preview.status).toBe(200);
    expect(preview.body.outcome).toBe('refuse');

    const res = await call(server.app, 'DELETE', `/api/pages/${id}`, { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('page/in-use');
    expect(res.body.message, 'the dialog said beforehand what the delete answers').toBe(preview.body.message);
    expect(res.body.message).toMatch(/^No puedes eliminar esta página: es obligatoria y \d+ clientes? la acept/);
    expect(await acceptances(id)).toBe(accepted);
    expect((await call(server.app, 'GET', `/api/pages/${terms!.slug}`)).status).toBe(200);

    // No longer required, it still has acceptances: still refused, still kept.
    expect((await call(server.app, 'PUT', '/api/pages', { token: admin, body: { page_id: id, required: false } })).status).toBe(200);
    const again = await call(server.app, 'DELETE', `/api/pages/${id}`, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/^No puedes eliminar esta página: \d+ clientes? la acept.* quítale la marca de obligatoria y deja su contenido vacío\.$/);
    expect(await acceptances(id)).toBe(accepted);
    await call(server.app, 'PUT', '/api/pages', { token: admin, body: { page_id: id, required: true } });
  });

  it('refuses a required page nobody accepted yet, and deletes it once it is not required', async () => {
    const created = await call(server.app, 'POST', '/api/pages', { token: admin, body: { slug: 'aviso-de-privacidad-2', title: 'Aviso de privacidad', required: true } });
    const id = created.body.page.page_id as number;
    const refused = await call(server.app, 'DELETE', `/api/pages/${id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^No puedes eliminar esta página: es obligatoria\./);
    await call(server.app, 'PUT', '/api/pages', { token: admin, body: { page_id: id, required: false } });
    const preview = await call(server.app, 'GET', `/api/pages/${id}/removal`, { token: admin });
    expect(preview.body).toEqual({ outcome: 'delete', message: 'Se eliminará la página. Esta acción no se puede deshacer.' });
    expect((await call(server.app, 'DELETE', `/api/pages/${id}`, { token: admin })).body).toEqual({ deleted: true, id });
  });
});

describe('deleting a class category', () => {
  it('refuses a category its class types use with a 409 naming how many, and detaches nothing', async () => {
    const [used] = await server.db
      .select({ id: class_category.class_category_id, n: count(class_type.class_type_id) })
      .from(class_category)
      .innerJoin(class_type, eq(class_type.class_category_id, class_category.class_category_id))
      .groupBy(class_category.class_category_id)
      .limit(1);
    expect(used, 'the demo seed has a category with class types').toBeDefined();
    const preview = await call(server.app, 'GET', `/api/class_categories/${used!.id}/removal`, { token: admin });
    expect(preview.body.outcome).toBe('refuse');
    const res = await call(server.app, 'DELETE', `/api/class_categories/${used!.id}`, { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(preview.body.message);
    expect(res.body.code).toBe('class-category/in-use');
    const n = Number(used!.n);
    expect(res.body.message).toContain(`${n} ${n === 1 ? 'tipo de clase' : 'tipos de clase'}`);
    expect(res.body.message).toMatch(/no se cambió nada\.$/);
    const still = await server.db.select({ n: count() }).from(class_type).where(eq(class_type.class_category_id, used!.id));
    expect(Number(still[0]?.n)).toBe(n);
    expect((await call(server.app, 'GET', `/api/class_categories/${used!.id}`)).status).toBe(200);
  });

  it('deletes a category once nothing uses it', async () => {
    const created = await call(server.app, 'POST', '/api/class_categories', { token: admin, body: { name: 'Categoría de paso' } });
    const id = created.body.class_category.class_category_id as number;
    expect((await call(server.app, 'DELETE', `/api/class_categories/${id}`, { token: admin })).body).toEqual({ deleted: true, id });
  });
});

describe('deleting a coach', () => {
  const upcomingClasses = async (id: number) =>
    Number(
      (
        await server.db
          .select({ n: count() })
          .from(single_class_instructor)
          .innerJoin(single_class, eq(single_class.single_class_id, single_class_instructor.single_class_id))
          // A class under way still counts as to come, as the product counts it: until its end, not its start.
          .where(
            and(
              eq(single_class_instructor.instructor_id, id),
              sql`${single_class.class_date} + make_interval(mins => ${single_class.duration_minutes}) > ${new Date().toISOString()}::timestamptz`,
              isNull(single_class.cancelledAt),
            ),
          )
      )[0]?.n ?? 0,
    );

  it('refuses a coach who teaches classes still to come, naming how many, and keeps them listed and on those classes', async () => {
    const coaches = await server.db.select({ id: instructor.instructor_id }).from(instructor).where(isNull(instructor.deletedAt));
    let active: { id: number; n: number } | undefined;
    for (const c of coaches) {
      const n = await upcomingClasses(c.id);
      if (n > 0) {
        active = { id: c.id, n };
        break;
      }
    }
    expect(active, 'the demo seed has a coach with classes to come').toBeDefined();
    const { id, n } = active!;

    const preview = await call(server.app, 'GET', `/api/instructors/${id}/removal`, { token: admin });
    expect(preview.status).toBe(200);
    expect(preview.body.outcome).toBe('refuse');
    expect(preview.body.message).toContain(`${n} ${n === 1 ? 'clase programada' : 'clases programadas'}`);

    const res = await call(server.app, 'DELETE', `/api/instructors/${id}`, { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('instructor/in-use');
    expect(res.body.message).toBe(preview.body.message);
    expect(res.body.message).toMatch(/desmarca «Disponible»/);
    expect((await call(server.app, 'GET', `/api/instructors/${id}`)).status).toBe(200);
    expect(await upcomingClasses(id)).toBe(n);
  });

  it('archives a coach whose classes are all past: hidden from the lists, still on the classes they gave', async () => {
    const created = await call(server.app, 'POST', '/api/instructors', { token: admin, body: { name: 'Coach', last_name: 'De Paso' } });
    expect(created.status).toBe(200);
    const id = created.body.instructor.instructor_id as number;
    const [past] = await server.db.select({ id: single_class.single_class_id }).from(single_class).where(lt(single_class.class_date, new Date())).limit(1);
    expect(past, 'the demo seed has past classes').toBeDefined();
    // The coach gave a class last week (the schedule only assigns coaches to classes to come).
    await server.db.insert(single_class_instructor).values({ single_class_id: past!.id, instructor_id: id });

    const preview = await call(server.app, 'GET', `/api/instructors/${id}/removal`, { token: admin });
    expect(preview.body).toEqual({ outcome: 'archive', message: 'Tiene 1 clase en su historial: se ocultará y se marcará como eliminado para conservar ese historial.' });
    expect((await call(server.app, 'DELETE', `/api/instructors/${id}`, { token: admin })).body).toEqual({ deleted: true, id });
    expect((await call(server.app, 'GET', `/api/instructors/${id}`, { token: admin })).status).toBe(404);
    const kept = await server.db.select().from(single_class_instructor).where(eq(single_class_instructor.instructor_id, id));
    expect(kept).toHaveLength(1);
  });

  it('the preview is for admins only', async () => {
    const customer = (await login(server.app, 'cliente@estudio.demo')).idToken;
    expect((await call(server.app, 'GET', '/api/instructors/1/removal', { token: customer })).status).toBe(403);
  });
});
