/** A database URL as PostgreSQL's own tools (libpq: pg_dump, pg_restore) take it. */

// Query parameters Prisma understands and libpq refuses ("invalid URI query parameter").
const PRISMA_ONLY_PARAMS = [
  'schema',
  'connection_limit',
  'pool_timeout',
  'pgbouncer',
  'statement_cache_size',
  'socket_timeout',
  'sslaccept',
];

/** The URL as libpq (pg_dump, pg_restore) accepts it. */
export function libpqUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  for (const name of PRISMA_ONLY_PARAMS) url.searchParams.delete(name);
  return url.toString();
}

export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
}

/** The same server's maintenance database, from which a new database is created. */
export function maintenanceUrl(databaseUrl: string): string {
  const url = new URL(libpqUrl(databaseUrl));
  url.pathname = '/postgres';
  return url.toString();
}
