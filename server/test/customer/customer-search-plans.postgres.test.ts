import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import type { Db } from '../../src/db.ts';
import { customer } from '@estudio/db/schema/customer';
import { and, isNull } from 'drizzle-orm';
import { matching, readPage } from '../../src/services/customer/admin-customers.ts';
import { customerTrigramStatistics, indexPiece } from '../../src/services/customer/search-trigrams.ts';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
const blocks = (n: PlanNode) => (n['Shared Hit Blocks'] ?? 0) + (n['Shared Read Blocks'] ?? 0);

/**
 * Decisions 061 and 062 (the second test, below). Decision 061: a search for a common name walks the live customers in name
 * order until its page is full, and the walk reads the index's own entries
 * only (customer_search_order_idx holds the live customers alone), so its
 * cost is index pages, not one row per name passed. With 20 first names, a
 * common last name's first page lies thousands of names in; before, each of
 * those names read its row to see whether it was deleted (5,441 blocks at
 * 200,000 customers in bench/growth.ts).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("the customer search's plans at 30,000 customers (PostgreSQL)", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
    if (t.kind !== 'postgres') throw new Error('PostgreSQL only');
    await t.client.unsafe(`
      insert into customer (uid, name, last_name, email, phone)
      select 'camino-' || n,
             (array['Ana','Luis','María','José','Sofía','Diego','Valeria','Carlos','Fernanda','Jorge','Camila','Miguel','Daniela','Andrés','Lucía','Ricardo','Paola','Héctor','Ximena','Emilio'])[1 + n % 20],
             (array['García','Hernández','Martínez','López','González','Pérez','Rodríguez','Sánchez','Ramírez','Cruz','Flores','Gómez','Morales','Vázquez','Reyes','Jiménez','Torres','Díaz','Gutiérrez','Ruiz','Mendoza','Aguilar','Ortiz','Moreno','Castillo','Romero','Álvarez','Méndez','Chávez','Rivera'])[1 + (n / 20) % 30],
             'camino-' || n || '@camino.demo',
             '55' || lpad(n::text, 8, '0')
        from generate_series(1, 30000) n`);
    // As autovacuum leaves a table at rest: statistics, and the visibility map an index-only scan relies on.
    await t.client.unsafe('vacuum analyze customer');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** The plan of a statement of customer ids as run (EXPLAIN ANALYZE, BUFFERS), and the ids it answers. */
  async function explainedIds(query: { sql: string; params: unknown[] }) {
    if (t.kind !== 'postgres') throw new Error('PostgreSQL only');
    const [row] = await t.client.unsafe(`explain (analyze, buffers, format json) ${query.sql}`, query.params as never[]);
    const plan = (row as unknown as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan;
    if (!plan) throw new Error('no plan');
    const found = await t.client.unsafe(query.sql, query.params as never[]);
    const ids = found.map((r) => Number(Object.values(r)[0])).sort((a, b) => a - b);
    return { plan, ids };
  }

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
    expect(blocks(plan)).toBeLessThan(150);
  });

  /**
   * Decision 062: every customer's e-mail here has 'camino' ('cam', 'ami', 'min', 'ino', 'no '), as a studio's
   * have '@gmail.com'. Looking up 'camino-2053@' whole intersects those five lists, each as long as the table;
   * the index is asked for '2053@' instead, and the whole text is compared on what it finds.
   */
  it('a piece of an e-mail the whole studio shares is looked up without the trigrams everyone has', async () => {
    if (t.kind !== 'postgres') return;
    const db = t.db as unknown as Db;
    const statistics = await customerTrigramStatistics(db);
    expect(statistics.shares.get('cam')).toBeGreaterThan(0.9);
    expect(indexPiece('camino-2053@', statistics)).toEqual({ start: 6, end: 12 });
    const explained = async (search: ReturnType<typeof matching>) =>
      explainedIds(db.select({ id: customer.customer_id }).from(customer).where(and(isNull(customer.deletedAt), search)).limit(101).toSQL());
    const whole = await explained(matching('camino-2053@'));
    const piece = await explained(matching('camino-2053@', statistics));
    expect(piece.ids).toEqual(whole.ids);
    // Her e-mail, and the twelve phones with 2053 in them (a search of a text with digits looks in the phones too).
    expect(piece.ids).toHaveLength(13);
    expect(nodes(piece.plan).map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`.trim())).toContain('Bitmap Index Scan customer_search_idx');
    // '-2053@' reads 24 blocks; the whole text, 84.
    expect(blocks(piece.plan)).toBeLessThan(40);
    expect(blocks(whole.plan)).toBeGreaterThan(60);
  });
  it('a new customer is in the trigram index at once, not in a pending list every search reads', async () => {
    if (t.kind !== 'postgres') return;
    await t.client.unsafe(`insert into customer (uid, name, last_name, email) select 'nueva-' || n, 'Nueva', 'Clienta', 'nueva-' || n || '@camino.demo' from generate_series(1, 300) n`);
    await t.client.unsafe('create extension if not exists pgstattuple');
    const [gin] = await t.client.unsafe(`select pending_pages, pending_tuples from pgstatginindex('customer_search_idx')`);
    expect([Number(gin?.pending_pages), Number(gin?.pending_tuples)]).toEqual([0, 0]);
  });
});

