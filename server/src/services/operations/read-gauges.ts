import { sql } from 'drizzle-orm';
import type { Db } from '../../db.ts';

export interface StudioGauges {
  /** Messages waiting or given up, by channel and status; `retrying`: pending after a failed attempt. */
  outbox: { channel: string; status: 'pending' | 'failed' | 'retrying'; count: number }[];
  /** Age of the oldest message due and not sent, by channel (seconds). */
  oldestPending: { channel: string; seconds: number }[];
  /** Each clock job: how late its due run is (0 when not due), its runs, whether its last run failed. */
  jobs: { name: string; lagSeconds: number; runs: number; failing: boolean }[];
  /** This database's connections of the product's processes, by state (PostgreSQL only). */
  connections: { state: string; count: number }[];
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/** The studio's gauges read at scrape time (decision 075): three short statements on indexed or tiny tables. */
export async function readStudioGauges(db: Db, kind: 'pglite' | 'postgres'): Promise<StudioGauges> {
  const outbox = rowsOf<{ channel: string; status: 'pending' | 'failed' | 'retrying'; count: number }>(
    await db.execute(sql`
      select channel, case when status = 'pending' and attempts > 0 and last_error is not null then 'retrying' else status end as status, count(*)::int as count
        from outbox_message where status in ('pending', 'failed')
       group by 1, 2`),
  );
  const oldestPending = rowsOf<{ channel: string; seconds: number | string }>(
    await db.execute(sql`
      select channel, extract(epoch from now() - min(next_attempt_at))::float8 as seconds
        from outbox_message where status = 'pending' and next_attempt_at <= now()
       group by 1`),
  ).map((r) => ({ channel: r.channel, seconds: Math.max(0, Number(r.seconds)) }));
  const jobs = rowsOf<{ name: string; lag: number | string; runs: number; failing: boolean }>(
    await db.execute(sql`
      select name, greatest(0, extract(epoch from now() - next_run_at))::float8 as lag, runs, last_error is not null as failing
        from scheduled_job`),
  ).map((r) => ({ name: r.name, lagSeconds: Number(r.lag), runs: r.runs, failing: r.failing }));
  const connections =
    kind === 'postgres'
      ? rowsOf<{ state: string | null; count: number }>(
          await db.execute(sql`
            select coalesce(state, 'unknown') as state, count(*)::int as count from pg_stat_activity
             where datname = current_database() and application_name = 'estudio'
             group by 1`),
        ).map((r) => ({ state: r.state ?? 'unknown', count: r.count }))
      : [];
  return { outbox, oldestPending, jobs, connections };
}
