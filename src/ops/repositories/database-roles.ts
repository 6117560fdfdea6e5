/**
 * Least privilege in the database: the eval service's role may read and add open-bench
 * receipts and nothing else. Run after each migration by the music role (the tables' owner),
 * so a table the migrations recreate gets its grant back (compose's `migrate` one-shot).
 */
import pg from 'pg';
import { libpqUrl } from '../database-url.js';

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The statements granting `role` what the eval service's open-bench ledger does. */
export function evalGrants(role: string): string[] {
  if (!ROLE_NAME.test(role))
    throw new Error(`role name ${JSON.stringify(role)}: use lower-case letters, digits and _ (at most 63)`);
  return [
    `GRANT SELECT, INSERT ON TABLE open_bench_receipts TO "${role}"`,
    `GRANT USAGE ON SEQUENCE open_bench_receipts_id_seq TO "${role}"`,
  ];
}

export async function grantEvalRole(databaseUrl: string, role: string): Promise<void> {
  const statements = evalGrants(role);
  // Prisma-only URL parameters (schema=…) are not PostgreSQL settings.
  const client = new pg.Client({ connectionString: libpqUrl(databaseUrl), connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const sql of statements) await client.query(sql);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}
