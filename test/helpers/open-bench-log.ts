/**
 * An open-bench log of its own for a test: the log's migration applied in a fresh PostgreSQL
 * schema of the run's database, the service's store and LogService over a pg pool, and an
 * Ed25519 key of the test's own. Other test files publishing meanwhile never touch it.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { JWK } from 'jose';
import pg from 'pg';
import { LogService } from '../../src/eval/open-bench/log/log-service.js';
import { treeHeadSigner } from '../../src/eval/open-bench/log/tree-head.js';
import { MerkleLogStore, type Sql } from '../../src/eval/repositories/open-bench-log.js';
import { testDatabaseUrl } from './music-env.js';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../prisma/migrations');

export function logMigrationSql(): string {
  const dir = readdirSync(MIGRATIONS).find((d) => d.endsWith('_open_bench_log'));
  if (!dir) throw new Error('no open_bench_log migration');
  return readFileSync(path.join(MIGRATIONS, dir, 'migration.sql'), 'utf8');
}

export function testKey(): {
  kid: string;
  privateJwk: pg.QueryResultRow;
  publicJwk: { kid: string; x?: string };
} {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const kid = `test-${randomBytes(4).toString('hex')}`;
  return {
    kid,
    privateJwk: { ...(privateKey.export({ format: 'jwk' }) as JWK), kid },
    publicJwk: { ...(publicKey.export({ format: 'jwk' }) as { x?: string }), kid },
  };
}

const pgSql = (c: pg.Pool | pg.PoolClient): Sql => ({
  query: async <T>(text: string, values: unknown[] = []) => (await c.query(text, values)).rows as T[],
});

export interface IsolatedLog {
  schema: string;
  url: string;
  pool: pg.Pool;
  store: MerkleLogStore;
  service: LogService;
  key: ReturnType<typeof testKey>;
  /** Appends one entry in its own transaction, as a publication does. */
  append(publicId: string, entry: Buffer): ReturnType<MerkleLogStore['append']>;
  close(): Promise<void>;
}

export async function isolatedLog(): Promise<IsolatedLog> {
  const schema = `obl_${randomBytes(6).toString('hex')}`;
  const url = new URL(testDatabaseUrl());
  url.searchParams.set('options', `-c search_path=${schema}`);
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`SET search_path = ${schema}`);
    await admin.query(logMigrationSql());
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: url.toString(), max: 8 });
  const key = testKey();
  const store = new MerkleLogStore(pgSql(pool), treeHeadSigner(key), Date.now);
  const service = new LogService(store, (fn) => fn());
  return {
    schema,
    url: url.toString(),
    pool,
    store,
    service,
    key,
    append: async (publicId, entry) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await store.append(pgSql(client), publicId, entry);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    },
    close: async () => {
      await pool.end();
      const c = new pg.Client({ connectionString: testDatabaseUrl() });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`).finally(() => c.end());
    },
  };
}
