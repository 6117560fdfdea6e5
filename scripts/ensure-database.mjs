// Creates the PostgreSQL database named in DATABASE_URL when it does not exist yet, so
// `make start-music` works on a fresh machine; but only for the default local URL or when
// asked with --create: a mistyped DATABASE_URL must stop start-up, not run on a new empty
// database. Connects to the server's `postgres` database with the same credentials.
import pg from 'pg';

const DEFAULT_URL = 'postgresql://postgres@127.0.0.1:5432/music';
const given = process.env.DATABASE_URL || DEFAULT_URL;
const mayCreate = given === DEFAULT_URL || process.argv.includes('--create');
const url = new URL(given);
const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
if (!/^[A-Za-z0-9_]+$/.test(name)) {
  console.error(`ensure-database: refusing unusual database name ${JSON.stringify(name)}`);
  process.exit(2);
}
const admin = new URL(url);
admin.pathname = '/postgres';
const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
try {
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found.rowCount === 0) {
    if (!mayCreate) {
      console.error(
        `ensure-database: the database ${JSON.stringify(name)} of DATABASE_URL does not exist; check the URL, or run with --create to create it`,
      );
      process.exitCode = 2;
    } else {
      await client.query(`CREATE DATABASE "${name}"`);
      console.log(`ensure-database: created database ${name}`);
    }
  }
} finally {
  await client.end();
}
