/**
 * Where the CPU of one music-api request goes, measured so that a loaded machine does not
 * distort it: the server runs in a child process; after a warm-up, the child's V8 CPU profiler
 * and process.cpuUsage() cover exactly N requests sent by autocannon from the parent. Prints
 * CPU microseconds per request and self time per function and per source file (what the
 * per-request hooks cost), and writes the .cpuprofile for a closer look (Chrome DevTools).
 *
 *   npx tsx bench/lib/profile-music-request.ts [path] [requests]
 *   (default: /api/v1/users/bench_user, 4000 requests; `{track}` in the path is a public track with a
 *   ready version, e.g. /api/v1/tracks/{track}; trending is filled by a rollup; PROFILE=off for CPU time only)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { listenLocal, startServeChild, withBenchMusic } from './music-app.js';
import { seedPlays, seedReadyTracks } from './music-seed.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (µs) per node id, from the sample deltas. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  return self;
}

function fileOf(url: string): string {
  if (url === '') return '(native/vm)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 14).split('/');
    return `npm:${rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const src = url.indexOf('/src/');
  return src >= 0 ? url.slice(src + 1) : url.replace(/^file:\/\//, '');
}

function summarise(profile: CpuProfile, requests: number): string {
  const self = selfTimes(profile);
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (us === 0) continue;
    const file = fileOf(node.callFrame.url);
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    byFile.set(file, (byFile.get(file) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number): string[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `${(us / requests).toFixed(1).padStart(8)} µs/req  ${k}`);
  return [
    'self time by file:',
    ...top(byFile, 30),
    '',
    'self time by function:',
    ...top(byFunction, 40),
  ].join('\n');
}

interface Served {
  url: string;
  trackId: string;
}

async function serve(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'music-prof-'));
  await withBenchMusic(dataDir, async ({ config, connections, app }) => {
    const user = await connections.prisma.user.create({
      data: { handle: 'bench_user', email: 'bench@example.org', passwordHash: 'x', displayName: 'Bench' },
    });
    const trackIds = await seedReadyTracks(connections, user.id, 20);
    await seedPlays(app, connections, config, trackIds);
    const served: Served = { url: await listenLocal(app), trackId: trackIds[0] ?? '' };
    process.stdout.write(JSON.stringify(served) + '\n');
    // PROFILE=off: CPU time per request only (the sampling profiler adds its own cost).
    const profiling = process.env.PROFILE !== 'off';
    const session = new Session();
    session.connect();
    const lines = createInterface({ input: process.stdin });
    let cpu = process.cpuUsage();
    for await (const line of lines) {
      if (line === 'start') {
        if (profiling) {
          await session.post('Profiler.enable');
          await session.post('Profiler.setSamplingInterval', { interval: 100 });
          await session.post('Profiler.start');
        }
        cpu = process.cpuUsage();
        process.stdout.write('started\n');
      } else if (line.startsWith('stop ')) {
        const used = process.cpuUsage(cpu);
        const requests = Number(line.slice(5));
        let summary = '(PROFILE=off: CPU time only)';
        let out = '';
        if (profiling) {
          const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
          out = join(tmpdir(), `music-request-${Date.now()}.cpuprofile`);
          await writeFile(out, JSON.stringify(profile));
          summary = summarise(profile, requests);
        }
        process.stdout.write(
          JSON.stringify({
            cpuMicrosPerRequest: (used.user + used.system) / requests,
            summary,
            profile: out,
          }) + '\n',
        );
        break;
      }
    }
  });
  await rm(dataDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const path = process.argv[2] ?? '/api/v1/users/bench_user';
  const requests = Number(process.argv[3] ?? 4000);
  const child = await startServeChild<Served>(import.meta.filename);
  const next = child.nextLine;
  const url = child.served.url + path.replace('{track}', child.served.trackId);
  if ((await fetch(url)).status !== 200) throw new Error(`${url} did not answer 200`);
  await autocannon({ url, connections: 10, amount: 2000 });
  child.sendLine('start');
  await next();
  const run = await autocannon({ url, connections: 10, amount: requests });
  child.sendLine(`stop ${requests}`);
  const report = JSON.parse(await next()) as {
    cpuMicrosPerRequest: number;
    summary: string;
    profile: string;
  };
  await child.stop();
  process.stdout.write(
    `${path}: ${requests} requests (${run.non2xx} non-2xx), server CPU ${report.cpuMicrosPerRequest.toFixed(0)} µs/request\n` +
      `profile: ${report.profile}\n\n${report.summary}\n`,
  );
}

if (process.argv.includes('--serve')) await serve();
else await main();
