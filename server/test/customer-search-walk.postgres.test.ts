import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import type { Db } from '../src/db.ts';
import { matching, readPage } from '../src/services/customer/admin-customers.ts';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/**
 * Decision 061: a search for a common name walks the live customers in name
 * order until its page is full, and the walk reads the index's own entries
 * only (customer_search_order_idx holds the live customers alone), so its
 * cost is index pages, not one row per name passed. With 20 first names, a
 * common last name's first page lies thousands of names in; before, each of
 * those names read its row to see whether it was deleted (5,441 blocks at
 * 200,000 customers in bench/growth.ts).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the walk by name for a common name (PostgreSQL)', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
    if (t.kind !== 'postgres') throw new Error('PostgreSQL only');
    await t.client.unsafe(`
      insert into customer (uid, name, last_name, email)
      select 'camino-' || n,
             (array['Ana','Luis','María','José','Sofía','Diego','Valeria','Carlos','Fernanda','Jorge','Camila','Miguel','Daniela','Andrés','Lucía','Ricardo','Paola','Héctor','Ximena','Emilio'])[1 + n % 20],
             (array['García','Hernández','Martínez','López','González','Pérez','Rodríguez','Sánchez','Ramírez','Cruz','Flores','Gómez','Morales','Vázquez','Reyes','Jiménez','Torres','Díaz','Gutiérrez','Ruiz','Mendoza','Aguilar','Ortiz','Moreno','Castillo','Romero','Álvarez','Méndez','Chávez','Rivera'])[1 + (n / 20) % 30],
             'camino-' || n || '@camino.demo'
        from generate_series(1, 30000) n`);
    // As autovacuum leaves a table at rest: statistics, and the visibility map an index-only scan relies on.
    await t.client.unsafe('vacuum analyze customer');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("when it walks the names, it reads index pages for the names it passes, and rows for its page's customers only", async () => {
    if (t.kind !== 'postgres') return;
    const query = readPage(t.db as unknown as Db, matching('mendoza'), 20, 0).toSQL();
    // At this size the planner may rather sort the trigram index's matches (at 200,000 customers it walked): the walk
    // is what is measured here, so the other ways are taken from it.
    const plan = await t.client.begin(async (sql) => {
      await sql.unsafe('set local enable_bitmapscan = off; set local enable_sort = off; set local max_parallel_workers_per_gather = 0');
      const [row] = await sql.unsafe(`explain (analyze, buffers, format json) ${query.sql}`, query.params as never[]);
      return (row as unknown as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan;
    });
    if (!plan) throw new Error('no plan');
    expect(nodes(plan).map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`.trim())).toContain('Index Only Scan customer_search_order_idx');
    // About 800 names passed: 12 blocks of the index, 60 for the page's 20 rows; reading each name's row was 899 in all.
    expect((plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0)).toBeLessThan(150);
  });
});
