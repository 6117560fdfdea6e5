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
