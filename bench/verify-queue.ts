/**
 * VERIFY_MODE=queue beside local mode, same run: per-task latency (one at a time) and
 * throughput (16 at once) of the gate and counterexample examples, through an in-process eval
 * app (inject, so HTTP costs the same in every mode), with 1 and then 2 verify-worker processes.
 * A private redis-server (no other traffic) gives the Redis commands and CPU per task (INFO
 * commandstats / cpu deltas); /proc gives the workers' CPU. Modes alternate in rounds.
 *   npx tsx bench/verify-queue.ts        (writes bench/results/verify-queue.md)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildEvalApp } from '../src/eval/app.js';
import { loadEvalConfig } from '../src/eval/config.js';
import { examples } from '../src/eval/routes/info.js';
import { startLoggedProcess, stopLoggedProcess, type LoggedProcess } from '../test/helpers/logged-process.js';
import { freePort } from '../test/helpers/free-port.js';
import { median } from './lib/timing.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 100);
const BURST = Number(process.env.BENCH_BURST ?? 400);
const CONCURRENCY = 16;
const PREFIX = 'bench-verify';
const TOOLS = ['gate', 'counterexample'] as const;
const bodies = Object.fromEntries(TOOLS.map((t) => [t, JSON.stringify(examples().examples[t])]));

async function startRedis(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const probe = new Redis({ port, lazyConnect: true, retryStrategy: () => 100, maxRetriesPerRequest: null });
  probe.on('error', () => undefined);
  await probe.connect().catch(() => undefined);
  await probe.ping();
  probe.disconnect();
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

function app(env: Record<string, string>): Promise<FastifyInstance> {
  return buildEvalApp(
    loadEvalConfig({
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-verify-')),
      EVAL_INLINE_MAX_BYTES: '0',
      EVAL_POOL_SIZE: '1',
      ...env,
    }),
  );
}

async function call(a: FastifyInstance, tool: string): Promise<void> {
  const res = await a.inject({
    method: 'POST',
    url: `/api/${tool}`,
    payload: bodies[tool],
    headers: { 'content-type': 'application/json' },
  });
  if (res.statusCode !== 200) throw new Error(`${tool}: ${res.statusCode} ${res.body}`);
}

/** Median milliseconds of one task, one at a time. */
async function latency(a: FastifyInstance, tool: string): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t0 = performance.now();
    await call(a, tool);
    t.push(performance.now() - t0);
  }
  return median(t);
}

/** Tasks per second, CONCURRENCY at once. */
async function throughput(a: FastifyInstance, tool: string): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < BURST) await call(a, tool);
    }),
  );
  return BURST / ((performance.now() - t0) / 1000);
}

function procCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function redisInfo(r: Redis): Promise<{ calls: Map<string, number>; cpuMs: number }> {
  const stats = await r.info('commandstats');
  const calls = new Map<string, number>();
  for (const m of stats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(m[1]!, Number(m[2]));
  const cpu = await r.info('cpu');
  const user = Number(/used_cpu_user:([\d.]+)/.exec(cpu)![1]);
  const sys = Number(/used_cpu_sys:([\d.]+)/.exec(cpu)![1]);
  return { calls, cpuMs: (user + sys) * 1000 };
}

interface Cost {
  /** Commands per task by name (inside scripts included). */
  calls: Map<string, number>;
  /** Script calls and blocking reads per task: the queue's round trips. */
  roundTrips: number;
  redisCpuMs: number;
  evalCpuMs: number;
  workerCpuMs: number;
}

/** The queue's round trips: script calls and blocking reads; the rest run inside the scripts. */
const CLIENT_SENT = /^(evalsha|eval|xread|bzpopmin|xrevrange)$/;

async function perTaskCost(a: FastifyInstance, tool: string): Promise<Cost> {
  const before = await redisInfo(admin);
  const evalCpu0 = process.cpuUsage();
  const workerCpu0 = workers.map((w) => procCpuMs(w.child.pid!));
  await throughput(a, tool);
  const after = await redisInfo(admin);
  const evalCpu = process.cpuUsage(evalCpu0);
  const calls = new Map<string, number>();
  for (const [cmd, n] of after.calls) {
    const d = (n - (before.calls.get(cmd) ?? 0)) / BURST;
    if (d > 0.005 && cmd !== 'info') calls.set(cmd, d);
  }
  return {
    calls,
    roundTrips: [...calls].filter(([c]) => CLIENT_SENT.test(c)).reduce((x, [, n]) => x + n, 0),
    redisCpuMs: (after.cpuMs - before.cpuMs) / BURST,
    evalCpuMs: (evalCpu.user + evalCpu.system) / 1000 / BURST,
    workerCpuMs: workers.reduce((x, w, i) => x + procCpuMs(w.child.pid!) - workerCpu0[i]!, 0) / BURST,
  };
}

interface Row {
  phase: string;
  tool: string;
  localMs: number;
  queueMs: number;
  localRate: number;
  queueRate: number;
}

const redis = await startRedis();
const admin = new Redis(redis.url);
const workers: LoggedProcess[] = [];
const startWorker = async (): Promise<void> => {
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    CACHE_URL: redis.url,
    VERIFY_QUEUE_PREFIX: PREFIX,
    VERIFY_WORKER_THREADS: '1',
  };
  workers.push(await startLoggedProcess('verify-worker', env, (l) => l.includes('verify-worker ready')));
};
const local = await app({});
const counted = await app({ CACHE_URL: redis.url });
const queued = await app({ VERIFY_MODE: 'queue', CACHE_URL: redis.url, VERIFY_QUEUE_PREFIX: PREFIX });
const rows: Row[] = [];
const perTask: string[] = [];
try {
  for (const phase of ['1 verify-worker', '2 verify-workers']) {
    await startWorker();
    for (const tool of TOOLS) {
      await latency(local, tool);
      await latency(queued, tool);
      const r: Row = { phase, tool, localMs: 0, queueMs: 0, localRate: 0, queueRate: 0 };
      const l: number[][] = [[], [], [], []];
      for (let i = 0; i < ROUNDS; i++) {
        l[0]!.push(await latency(local, tool));
        l[1]!.push(await latency(queued, tool));
        l[2]!.push(await throughput(local, tool));
        l[3]!.push(await throughput(queued, tool));
      }
      [r.localMs, r.queueMs, r.localRate, r.queueRate] = l.map(median) as [number, number, number, number];
      rows.push(r);
      // Redis commands and CPU per task: one clean burst each, nothing else on this Redis. The
      // local app with the same CACHE_URL makes the same usage-counter calls: its figures are
      // the baseline, the difference is the queue's.
      const base = await perTaskCost(counted, tool);
      const q = await perTaskCost(queued, tool);
      const extra = [...q.calls]
        .map(([cmd, n]) => [cmd, n - (base.calls.get(cmd) ?? 0)] as const)
        .filter(([, n]) => n > 0.05)
        .sort((a, b) => b[1] - a[1]);
      const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
      perTask.push(
        `| ${phase} | ${tool} | ${sum(base.calls).toFixed(1)} | ${sum(q.calls).toFixed(1)} | ${(sum(q.calls) - sum(base.calls)).toFixed(1)} | ` +
          `${q.roundTrips.toFixed(1)} | ${extra.map(([c, n]) => `${c} ${n.toFixed(1)}`).join(', ')} | ` +
          `${base.redisCpuMs.toFixed(3)} | ${q.redisCpuMs.toFixed(3)} | ${base.evalCpuMs.toFixed(2)} | ${q.evalCpuMs.toFixed(2)} | ${q.workerCpuMs.toFixed(2)} |`,
      );
    }
  }
} finally {
  await queued.close();
  await counted.close();
  await local.close();
  for (const w of workers) await stopLoggedProcess(w);
  admin.disconnect();
  redis.stop();
}

const lines = [
  '## Verify queue: VERIFY_MODE=queue beside local mode',
  '',
  `${new Date().toISOString()}, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores.`,
  `Local: eval with 1 pool thread. Queue: the same eval with 1 or 2 verify-worker processes of 1 thread each, private redis-server.`,
  `Latency: median of ${SEQUENTIAL} sequential tasks; throughput: ${BURST} tasks, ${CONCURRENCY} at once; median of ${ROUNDS} alternating rounds.`,
  '',
  '| workers | tool | local ms/task | queue ms/task | overhead ms/task | local tasks/s | queue tasks/s | queue/local throughput |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.phase} | ${r.tool} | ${r.localMs.toFixed(2)} | ${r.queueMs.toFixed(2)} | ${(r.queueMs - r.localMs).toFixed(2)} | ` +
      `${r.localRate.toFixed(0)} | ${r.queueRate.toFixed(0)} | ${(r.queueRate / r.localRate).toFixed(2)} |`,
  ),
  '',
  'Per task, over one burst: Redis commands (INFO commandstats delta, commands run inside BullMQ scripts included) of local mode with the same CACHE_URL (usage counters only: the baseline) and of queue mode; the queue round trips (script calls and blocking reads: EVALSHA, XREAD, BZPOPMIN); what the queue adds by command; Redis CPU; CPU of the eval process (its pool threads included) and of the verify-workers:',
  '',
  '| workers | tool | Redis cmds, local | Redis cmds, queue | queue adds | queue round trips | added by command | Redis CPU ms, local | Redis CPU ms, queue | eval CPU ms, local | eval CPU ms, queue | workers CPU ms |',
  '| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ...perTask,
  '',
];
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/verify-queue.md', lines.join('\n'));
process.stdout.write(lines.join('\n'));
