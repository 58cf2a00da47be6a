import dayjs from 'dayjs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { instructor } from '@estudio/db/schema/catalogue';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { accessOf, procedures, requestFor, routeName, validInput } from '../support/router-walk.ts';

/**
 * What the public site answers to anyone: no members-only video
 * url, no instructor's birth year, e-mail or phone. Every public and
 * optional-auth query is called without a token and its whole answer is
 * searched; the named routes below are also called with seeded ids, so the
 * payloads they check are not empty.
 */

let server: TestServer;
let admin: string;
demoStudio(['admin'], (s) => ({ server, tokens: { admin } } = s));

/** Every object inside a JSON value, depth first. */
function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const item of value) objectsIn(item, out);
  else if (value && typeof value === 'object') {
    out.push(value as Record<string, unknown>);
    for (const item of Object.values(value)) objectsIn(item, out);
  }
  return out;
}

/** What a public answer must not carry; empty when clean. */
function leaksIn(body: unknown): string[] {
  const leaks: string[] = [];
  for (const o of objectsIn(body)) {
    if ('instructor_id' in o) {
      if (typeof o.birthdate === 'string' && /^\d{4}/.test(o.birthdate)) leaks.push(`birth year of instructor ${String(o.instructor_id)}: ${o.birthdate}`);
      for (const key of ['email', 'phone', 'customer_id']) if (key in o) leaks.push(`${key} of instructor ${String(o.instructor_id)}`);
    }
    if ('video_id' in o && typeof o.url === 'string') leaks.push(`url of video ${String(o.video_id)}`);
  }
  return leaks;
}

const publicQueries = procedures.filter((p) => p.def.type === 'query' && ['public', 'optional'].includes(accessOf(p.def)));

describe('public answers', () => {
  it.each(publicQueries.map((p) => [routeName(p), p] as const))('%s carries no members-only url and no instructor birth year', async (_, route) => {
    const req = requestFor(route, validInput(route.def));
    const res = await call(server.app, req.method, req.url);
    expect(leaksIn(res.body)).toEqual([]);
  });

  it('the coaches, one coach and the schedule show a birthday as day and month only', async () => {
    const [coach] = await server.db.select().from(instructor).where(eq(instructor.birthdate, '1989-03-14'));
    expect(coach, 'the demo seed has a coach born on 1989-03-14').toBeDefined();
    const id = coach!.instructor_id;
    const from = dayjs().format('YYYY-MM-DD');
    const to = dayjs().add(14, 'day').format('YYYY-MM-DD');
    const answers = {
      list: await call(server.app, 'GET', '/api/instructors'),
      home: await call(server.app, 'GET', '/api/instructors/home/all'),
      one: await call(server.app, 'GET', `/api/instructors/${id}`),
      schedule: await call(server.app, 'GET', `/api/single_class?start_date=${from}&end_date=${to}&instructor_id=${id}`),
      trpc: await call(server.app, 'GET', '/trpc/instructors.list'),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.status, name).toBe(200);
      expect(leaksIn(res.body), name).toEqual([]);
      const theirs = objectsIn(res.body).filter((o) => o.instructor_id === id && 'birthdate' in o);
      expect(theirs.length, `${name} shows the coach`).toBeGreaterThan(0);
      for (const o of theirs) expect(o.birthdate, name).toBe('--03-14');
    }
    // The admin, who edits it, still reads the whole date.
    const forAdmin = await call(server.app, 'GET', `/api/instructors/${id}`, { token: admin });
    expect(forAdmin.body.instructor.birthdate).toBe('1989-03-14');
  });
});
