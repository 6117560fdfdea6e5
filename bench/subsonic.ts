/**
 * OpenSubsonic API benchmark: getAlbumList2, search3, getArtists and getAlbum at 10
 * connections over a library of 10,000 and one of 100,000 songs (generated tags: 10 songs an
 * album, 10 albums an artist, 20 genres), beside Debian's supysonic (a Python Subsonic server)
 * answering the same requests over the same songs in the same run, where it is installed.
 *
 * Songs are seeded in batches through the Prisma client (users, tracks, assets, ready versions
 * with tags: the rows the pipeline would leave), then read through the real music-api app in a
 * child process (this file with --serve), so autocannon never shares its event loop.
 * supysonic needs files: each song is a copy of one tiny generated MP3 re-tagged with mutagen
 * (installed with supysonic), scanned by `supysonic-cli`; it runs for the smallest size only
 * (its scan of 100,000 files takes longer than the bench should).
 *
 *   npx tsx bench/subsonic.ts                 # 10000 and 100000
 *   BENCH_SUBSONIC_SIZES=2000 BENCH_SECONDS=3 npx tsx bench/subsonic.ts
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ratio } from './lib/autocannon.js';
import { measure, progress, uptime, type Measured } from './lib/subsonic-measure.js';
import {
  CONNECTIONS,
  ROOT,
  SECONDS,
  SIZES,
  WITH_SUPYSONIC,
  serve,
  type Served,
} from './lib/subsonic-serve.js';
import { supysonic } from './lib/subsonic-supysonic.js';

async function ours(size: number): Promise<Measured> {
  progress(`seeding ${size} songs`);
  const child = spawn(
    process.execPath,
    [...process.execArgv, import.meta.filename, '--serve', String(size)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  progress(`serving ${size} songs`);
  try {
    return await measure(`platform ${size}`, JSON.parse(line) as Served);
  } finally {
    const exited = once(child, 'exit');
    child.stdin.end();
    // The child drops its database on the way out; one that does not finish in 60 s is killed.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Rows with the server's CPU and, for the platform, its PostgreSQL backends' CPU per request. */
function cpuTable(measured: Measured[]): string {
  const ms = (v: number): string => (Number.isNaN(v) ? '' : v.toFixed(3));
  const lines = [
    '| run | req/s | p50 ms | p99 ms | non-2xx | errors | server CPU ms / req | PostgreSQL CPU ms / req | total CPU ms / req |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const m of measured)
    m.rows.forEach((r, i) => {
      const db = m.dbCpuMsPerRequest[i] ?? NaN;
      const total = r.cpuMsPerRequest + (Number.isNaN(db) ? 0 : db);
      lines.push(
        `| ${r.label} | ${r.requestsPerSecond.toFixed(1)} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} | ${r.errors} | ${ms(r.cpuMsPerRequest)} | ${ms(db)} | ${ms(total)} |`,
      );
    });
  return lines.join('\n');
}

const totalCpu = (m: Measured, i: number): number =>
  (m.rows[i]?.cpuMsPerRequest ?? NaN) +
  (Number.isNaN(m.dbCpuMsPerRequest[i] ?? NaN) ? 0 : m.dbCpuMsPerRequest[i]!);

async function main(): Promise<void> {
  const sections: string[] = [];
  const bySize = new Map<number, Measured>();
  let theirs: Measured | string = 'not run (BENCH_SUBSONIC_SUPYSONIC=off)';
  const loadBefore = uptime();
  for (const size of SIZES) bySize.set(size, await ours(size));
  const smallest = Math.min(...SIZES);
  if (WITH_SUPYSONIC)
    try {
      theirs = await supysonic(smallest);
    } catch (err) {
      theirs = `supysonic failed: ${(err as Error).message.split('\n')[0]}`;
    }
  const all = [...bySize.values()];
  if (typeof theirs !== 'string') all.push(theirs);
  sections.push(
    '## subsonic',
    '',
    `autocannon ${CONNECTIONS} connections, ${SECONDS} s per endpoint; libraries of ${SIZES.join(' and ')} songs (10 songs an album, 10 albums an artist); apiKey auth, f=json. supysonic ${typeof theirs !== 'string' ? `over the same ${smallest} songs as MP3 files, u/p auth` : `: ${theirs}`}. ${loadBefore} at the start, ${uptime()} at the end (2 cores). CPU: the serving process from /proc, plus its PostgreSQL backends for the platform (supysonic's SQLite runs in its process).`,
    '',
    cpuTable(all),
    '',
  );
  const small = bySize.get(smallest);
  if (small && typeof theirs !== 'string') {
    sections.push(
      '| endpoint | platform / supysonic req/s (target ≥ 10) | platform p99 ms (target ≤ 25) | supysonic / platform total CPU per request |',
      '| --- | ---: | ---: | ---: |',
    );
    small.rows.forEach((r, i) => {
      const other = theirs.rows[i];
      sections.push(
        `| ${r.label.split(': ')[1]} | ${other ? ratio(r.requestsPerSecond, other.requestsPerSecond) : 'n/a'} | ${r.p99Ms} | ${other ? ratio(totalCpu(theirs, i), totalCpu(small, i)) : 'n/a'} |`,
      );
    });
    sections.push('');
  }
  const largest = Math.max(...SIZES);
  const big = bySize.get(largest);
  if (largest !== smallest && small && big) {
    sections.push(`p99 growth from ${smallest} to ${largest} songs:`, '');
    small.rows.forEach((r, i) => {
      const b = big.rows[i];
      if (b)
        sections.push(
          `- ${r.label.split(': ')[1]}: ${r.p99Ms} ms -> ${b.p99Ms} ms (x${ratio(b.p99Ms, Math.max(1, r.p99Ms))}); total CPU ${totalCpu(small, i).toFixed(3)} -> ${totalCpu(big, i).toFixed(3)} ms / request`,
        );
    });
    sections.push('');
  }
  const markdown = sections.join('\n');
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'subsonic.md'), markdown);
  process.stdout.write(markdown);
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt !== -1) await serve(Number(process.argv[serveAt + 1]));
else await main();
