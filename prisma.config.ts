/**
 * Prisma CLI configuration (migrate deploy / migrate dev / generate).
 *
 * Prisma 6.19 with `engine: 'js'` runs the WASM schema engine through @prisma/adapter-pg, so no
 * engine binary is downloaded (these machines reach only npm and apt). Three adapter bugs are worked
 * around HERE and nowhere else:
 *
 * 1. prisma/orm issue 27403: the adapter cannot map the PostgreSQL `name` (oid 19) and `"char"`
 *    (oid 18) column types that the schema engine meets when it introspects pg_catalog, and
 *    throws UnsupportedNativeDataType. Both are text; we relabel them as `text` (oid 25) on every
 *    result before the adapter sees it.
 * 2. The adapter's executeScript splits a migration on every ';', which cuts dollar-quoted
 *    function bodies (triggers, plpgsql); a script holding `$$` is sent whole instead (one
 *    simple query: PostgreSQL runs it as one implicit transaction).
 * 3. The adapter's shadow database for `migrate dev` spreads `{ ...config, database }`, but a
 *    `connectionString` overrides `database` in pg, so the "shadow" would be the real database
 *    (and migrate dev resets its shadow). We create and drop a uniquely named database ourselves
 *    and connect to it with a rewritten connection string.
 */
import { randomUUID } from 'node:crypto';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/music';

// The schema's `url = env("DATABASE_URL")` must resolve even for `generate`/`validate`: when it
// does not, the CLI cannot read the generator's engineType and falls back to downloading the
// native query engine (which fails offline). Default to the design's database URL.
process.env.DATABASE_URL ??= DEFAULT_DATABASE_URL;
const databaseUrl = process.env.DATABASE_URL;

const PG_OID_CHAR = 18;
const PG_OID_NAME = 19;
const PG_OID_TEXT = 25;

type QueryResultLike = { fields?: { dataTypeID: number }[] } | undefined;

function relabelTextLikeFields(result: QueryResultLike): void {
  for (const field of result?.fields ?? []) {
    if (field.dataTypeID === PG_OID_NAME || field.dataTypeID === PG_OID_CHAR) field.dataTypeID = PG_OID_TEXT;
  }
}

/** A pg Client whose results never carry the `name`/`"char"` oids (prisma/orm#27403). */
class IntrospectionSafeClient extends pg.Client {
  // pg's query() has many overloads (promise or callback); we patch both shapes of the result.
  override query(...args: unknown[]): never {
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      const callback = last as (err: unknown, res: QueryResultLike) => void;
      args[args.length - 1] = (err: unknown, res: QueryResultLike) => {
        if (!err) relabelTextLikeFields(res);
        callback(err, res);
      };
      return (super.query as (...a: unknown[]) => unknown)(...args) as never;
    }
    const pending = (super.query as (...a: unknown[]) => unknown)(...args);
    if (pending instanceof Promise) {
      return pending.then((res: QueryResultLike) => {
        relabelTextLikeFields(res);
        return res;
      }) as never;
    }
    return pending as never;
  }
}

function poolFor(connectionString: string): pg.Pool {
  return new pg.Pool({ connectionString, Client: IntrospectionSafeClient });
}

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;

/** Scripts with dollar-quoted bodies go to PostgreSQL whole, not split on ';'. */
function wholeDollarQuotedScripts(adapter: Adapter): Adapter {
  const split = adapter.executeScript.bind(adapter);
  adapter.executeScript = async (script: string) => {
    if (!script.includes('$$')) return split(script);
    await adapter.underlyingDriver().query(script);
  };
  return adapter;
}

class MigrationAdapterFactory extends PrismaPg {
  constructor(private readonly connectionString: string) {
    super(poolFor(connectionString), { disposeExternalPool: true });
  }

  override async connect(): Promise<Adapter> {
    return wholeDollarQuotedScripts(await super.connect());
  }

  override async connectToShadowDb(): Promise<Adapter> {
    const name = `prisma_shadow_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: this.connectionString });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(this.connectionString);
    url.pathname = `/${name}`;
    const shadow = wholeDollarQuotedScripts(
      await new PrismaPg(poolFor(url.toString()), { disposeExternalPool: true }).connect(),
    );
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    };
    return shadow;
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: () => Promise.resolve(new MigrationAdapterFactory(databaseUrl)),
});
