/** Short-lived PostgreSQL connections for the tests' own bookkeeping: making and dropping databases. */
import pg from 'pg';

/** Another database's URL on the server of `url` (`postgres`: where databases are made and dropped). */
export function databaseUrlOf(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

/** Runs `fn` on a connection to `url`, ended afterwards whatever `fn` does. */
export async function withPostgres<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Resolves once a backend waits for a lock on a statement like `pattern` (SQL LIKE). */
export async function waitForLockWaiter(pool: pg.Pool, pattern: string): Promise<void> {
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE $1`,
      [pattern],
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
