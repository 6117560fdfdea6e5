// Creates the PostgreSQL database named in DATABASE_URL when it does not exist yet, so
// `make start-music` works on a fresh machine. Connects to the server's `postgres` database
// with the same credentials to do it.
import pg from 'pg';

const url = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/music');
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
    await client.query(`CREATE DATABASE "${name}"`);
    console.log(`ensure-database: created database ${name}`);
  }
} finally {
  await client.end();
}
