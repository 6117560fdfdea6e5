/** The Subsonic bench's load runs: autocannon per endpoint, the server's and PostgreSQL's CPU per request. */
import { loadavg } from 'node:os';
import pg from 'pg';
import { load, type LoadResult } from './autocannon.js';
import { processCpuMs } from './process-cpu.js';
import { ADMIN_URL, CONNECTIONS, ENDPOINTS, SECONDS, type Served } from './subsonic-serve.js';

/** Measured rows plus the PostgreSQL backends' CPU per request of each (NaN when not measured). */
export interface Measured {
  rows: LoadResult[];
  dbCpuMsPerRequest: number[];
}

/** Summed CPU of a database's backends (a backend gone since `before` is not counted). */
async function backendsCpu(admin: pg.Client | undefined, database: string | undefined) {
  if (!admin || database === undefined) return new Map<number, number>();
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      out.set(pid, processCpuMs(pid));
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

export async function measure(label: string, s: Served): Promise<Measured> {
  const endpoints: [string, string][] = [
    ['getAlbumList2 newest', `getAlbumList2.view?type=newest&size=20&${s.query}`],
    ['search3 "blue"', `search3.view?query=blue&songCount=20&albumCount=20&artistCount=20&${s.query}`],
    ['getArtists', `getArtists.view?${s.query}`],
    ['getAlbum', `getAlbum.view?id=${encodeURIComponent(s.albumId)}&${s.query}`],
  ];
  const out: Measured = { rows: [], dbCpuMsPerRequest: [] };
  const admin = s.database === undefined ? undefined : new pg.Client({ connectionString: ADMIN_URL });
  await admin?.connect();
  try {
    for (const [name, path] of endpoints) {
      if (ENDPOINTS && !ENDPOINTS.includes(name.split(' ')[0]!)) continue;
      progress(`${label}: ${name} (${uptime()})`);
      const first = await fetch(s.base + path);
      const text = await first.text();
      if (first.status !== 200 || !text.includes('"ok"'))
        throw new Error(`${label} ${name}: ${first.status} ${text.slice(0, 200)}`);
      await load('warm-up', { url: s.base + path, connections: CONNECTIONS, durationSeconds: 1 });
      const before = await backendsCpu(admin, s.database);
      const row = await load(`${label}: ${name}`, {
        url: s.base + path,
        connections: CONNECTIONS,
        durationSeconds: SECONDS,
        cpuPid: s.pid,
      });
      const after = await backendsCpu(admin, s.database);
      let db = 0;
      for (const [pid, ms] of after) db += ms - (before.get(pid) ?? 0);
      out.rows.push(row);
      out.dbCpuMsPerRequest.push(admin && row.requests > 0 ? db / row.requests : NaN);
    }
  } finally {
    await admin?.end();
  }
  return out;
}

/** The load average, reported beside each run (the machine is shared). */
export const uptime = (): string =>
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

export const progress = (text: string): void => void process.stderr.write(`subsonic bench: ${text}\n`);
