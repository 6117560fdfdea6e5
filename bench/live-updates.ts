/**
 * Live updates benchmark (docs/live-updates.md): one music-api instance (a child process, so
 * the clients never share its event loop) with 1,000 websocket clients connected, one per user,
 * each authenticated by its hello. This process plays the worker: it publishes events through
 * the same Redis event stream the worker uses, and measures
 *
 * 1. fan-out throughput: a burst of events spread over the 1,000 users, first publish to the
 *    last delivery, events per second;
 * 2. delay from the worker's publish to the client's receipt at a steady rate, p50 and p99;
 *
 * beside a baseline measured in the same run the same way: a bare `ws` server (another child)
 * that receives the same messages over one websocket from this process and forwards each to
 * its client (no Redis, no identity, no bounds). Rounds alternate which side goes first.
 *
 *   npx tsx bench/live-updates.ts          (needs Redis; no database)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import { buildMusicApp } from '../src/music/app.js';
import { RedisEventStream } from '../src/music/repositories/event-stream-repository.js';
import type { LiveEvent } from '../src/music/services/live-events.js';
import { TokenService } from '../src/music/services/tokens.js';
import { createRedis } from '../src/core/repositories/redis.js';
import {
  benchMusicConfig,
  benchMusicConnections,
  listenLocal,
  serveUntilParentEnds,
  startServeChild,
  writeBenchResult,
} from './lib/music-app.js';

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 1000);
const BURST = Number(process.env.BENCH_LIVE_BURST ?? 20_000);
const PACED_RATE = Number(process.env.BENCH_LIVE_RATE ?? 1000);
const PACED_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const JWT_SECRET = process.env.BENCH_JWT_SECRET ?? randomBytes(32).toString('hex');

const now = (): number => performance.timeOrigin + performance.now();

interface Served {
  url: string;
  prefix?: string;
}

/** Child: the music-api (no database needed: the websocket path never queries it). */
async function serveMusic(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-live-'));
  const config = benchMusicConfig('postgresql://postgres@127.0.0.1:5432/unused', dataDir, {
    JWT_SECRET,
    EVENTS_MAX_BUFFERED_BYTES: String(8 * 1024 * 1024),
    // Every client connects from 127.0.0.1: the per-address cap would refuse most of them.
    HTTP_CONNECTIONS_PER_ADDRESS: String(CLIENTS + 100),
  });
  const connections = await benchMusicConnections(config);
  const app = buildMusicApp(config, connections);
  const base = await listenLocal(app);
  await serveUntilParentEnds({
    url: `${base.replace('http', 'ws')}/api/v1/events`,
    prefix: config.cacheKeyPrefix,
  });
  await app.close();
  await connections.close();
  await rm(dataDir, { recursive: true, force: true });
}

/** Child: the baseline, a bare ws server: client i says hello with its index; the feed socket forwards. */
async function serveBare(): Promise<void> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const clients = new Map<string, WebSocket>();
  wss.on('connection', (ws) => {
    ws.once('message', (first) => {
      const hello = JSON.parse((first as Buffer).toString()) as { feed?: boolean; user?: string };
      if (hello.feed) {
        ws.on('message', (data) => {
          const text = (data as Buffer).toString();
          const user = text.slice(0, 36);
          clients.get(user)?.send(text.slice(36));
        });
      } else if (hello.user) {
        clients.set(hello.user, ws);
        ws.send('{"type":"hello"}');
      }
    });
  });
  const address = wss.address() as { port: number };
  await serveUntilParentEnds({ url: `ws://127.0.0.1:${address.port}` });
  wss.close();
}

interface Side {
  name: string;
  /** Sends one event to a user (the worker's publish, or the baseline's forward). */
  publish(user: string, event: LiveEvent): Promise<void>;
  stop(): Promise<void>;
}

interface Receipts {
  count: number;
  delays: number[];
  onCount?: () => void;
}

function event(sentAt: number): LiveEvent {
  return {
    type: 'version.step',
    data: {
      track_id: '00000000-0000-4000-8000-000000000000',
      version_id: String(sentAt),
      step: 'transcoding',
      label: 'Transcoding',
      required: true,
      status: 'progress',
      percent: 50,
    },
  };
}

async function connectClients(url: string, users: string[], hello: (user: string) => string, r: Receipts) {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < users.length; i += 100) {
    const batch = users.slice(i, i + 100);
    sockets.push(
      ...(await Promise.all(
        batch.map(
          (user) =>
            new Promise<WebSocket>((resolve, reject) => {
              const ws = new WebSocket(url);
              ws.once('error', reject);
              ws.once('open', () => ws.send(hello(user)));
              ws.once('message', () => {
                ws.on('message', (data) => {
                  const text = (data as Buffer).toString();
                  const at = text.indexOf('"version_id":"');
                  if (at < 0) return;
                  const sent = Number(text.slice(at + 14, text.indexOf('"', at + 14)));
                  r.delays.push(now() - sent);
                  r.count++;
                  r.onCount?.();
                });
                resolve(ws);
              });
            }),
        ),
      )),
    );
  }
  return sockets;
}

async function startMusic(users: string[], r: Receipts): Promise<Side & { sockets: WebSocket[] }> {
  const child = await startServeChild<Served>(import.meta.filename, {
    BENCH_JWT_SECRET: JWT_SECRET,
    BENCH_SIDE: 'music',
  });
  const tokens = new TokenService(JWT_SECRET, 3600);
  const tokenOf = new Map<string, string>();
  for (const u of users)
    tokenOf.set(u, (await tokens.issue({ id: u, handle: `h${u.slice(0, 8)}`, role: 'user' })).token);
  const sockets = await connectClients(
    child.served.url,
    users,
    (u) => JSON.stringify({ type: 'hello', v: 1, token: tokenOf.get(u) }),
    r,
  );
  const redis = createRedis(process.env.CACHE_URL ?? 'redis://127.0.0.1:6379', { commandTimeoutMs: 10_000 });
  const stream = new RedisEventStream(redis, '', { prefix: child.served.prefix!, window: 500 });
  return {
    name: 'music-api (Redis stream, hub)',
    sockets,
    publish: (user, e) => stream.publish(user, e),
    stop: async () => {
      for (const s of sockets) s.terminate();
      await redis.quit();
      await child.stop();
    },
  };
}

async function startBare(users: string[], r: Receipts): Promise<Side & { sockets: WebSocket[] }> {
  const child = await startServeChild<Served>(import.meta.filename, { BENCH_SIDE: 'bare' });
  const sockets = await connectClients(child.served.url, users, (u) => JSON.stringify({ user: u }), r);
  const feed = new WebSocket(child.served.url);
  await new Promise((resolve) => feed.once('open', resolve));
  feed.send(JSON.stringify({ feed: true }));
  let seq = 0;
  return {
    name: 'bare ws forwarder (baseline)',
    sockets,
    publish: (user, e) => {
      // The same wire text the music side delivers.
      const text = `{"v":1,"id":"${Date.now()}-${seq++}","at":"${new Date().toISOString()}","type":"${e.type}","data":${JSON.stringify(e.data)}}`;
      return new Promise((resolve, reject) =>
        feed.send(user + text, (err) => (err ? reject(err) : resolve())),
      );
    },
    stop: async () => {
      for (const s of sockets) s.terminate();
      feed.terminate();
      await child.stop();
    },
  };
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

interface Figures {
  eventsPerSecond: number;
  p50: number;
  p99: number;
}

async function measure(start: (users: string[], r: Receipts) => Promise<Side>): Promise<Figures> {
  const users = Array.from({ length: CLIENTS }, () => randomUUID());
  const r: Receipts = { count: 0, delays: [] };
  const side = await start(users, r);
  try {
    // 1. Burst: every event published as fast as the connection takes them.
    const done = new Promise<void>((resolve) => (r.onCount = () => r.count >= BURST && resolve()));
    const t0 = now();
    for (let i = 0; i < BURST; i += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, BURST - i) }, (_, j) =>
          side.publish(users[(i + j) % CLIENTS]!, event(now())),
        ),
      );
    }
    await done;
    const eventsPerSecond = BURST / ((now() - t0) / 1000);
    // 2. Steady rate: the delay from publish to receipt.
    r.count = 0;
    r.delays = [];
    const total = PACED_RATE * PACED_SECONDS;
    const paced = new Promise<void>((resolve) => (r.onCount = () => r.count >= total && resolve()));
    const started = now();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / PACED_RATE;
      const wait = due - now();
      // Yield every time: the receipts (same process) are read between publishes, not after a run of them.
      await (wait > 1 ? new Promise((resolve) => setTimeout(resolve, wait)) : new Promise(setImmediate));
      void side.publish(users[i % CLIENTS]!, event(now()));
    }
    await paced;
    return { eventsPerSecond, p50: quantile(r.delays, 0.5), p99: quantile(r.delays, 0.99) };
  } finally {
    await side.stop();
  }
}

async function main(): Promise<void> {
  const load = loadavg().map((x) => x.toFixed(1));
  const music: Figures[] = [];
  const bare: Figures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['music', 'bare'] : ['bare', 'music'];
    for (const side of order) {
      if (side === 'music') music.push(await measure(startMusic));
      else bare.push(await measure(startBare));
      process.stderr.write(`round ${round} ${side} done\n`);
    }
  }
  const med = (xs: number[]): number => {
    const s = [...xs].sort((x, y) => x - y);
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  };
  const summary = (fs: Figures[]) => ({
    eps: med(fs.map((f) => f.eventsPerSecond)),
    p50: med(fs.map((f) => f.p50)),
    p99: med(fs.map((f) => f.p99)),
  });
  const m = summary(music);
  const b = summary(bare);
  const rows = [
    ...music.map((f, i) => ['music-api', i, f] as const),
    ...bare.map((f, i) => ['bare ws', i, f] as const),
  ];
  const md = [
    '## live-updates',
    '',
    `${CLIENTS} websocket clients on one instance, one per user (each authenticated by its hello); this process publishes as the worker does (XADD to the user's stream and the shared stream, via Redis) and holds the clients. Burst: ${BURST} events spread over the users, first publish to last receipt. Delay: ${PACED_RATE} events/s for ${PACED_SECONDS} s, publish to receipt. Baseline: a bare \`ws\` server forwarding the same wire text, fed over one websocket (no Redis, no identity, no bounds). ${ROUNDS} rounds, order alternating. Load average at the start: ${load.join(', ')}.`,
    '',
    '| side | round | events/s (burst) | delay p50 ms | delay p99 ms |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      ([name, i, f]) =>
        `| ${name} | ${i} | ${f.eventsPerSecond.toFixed(0)} | ${f.p50.toFixed(2)} | ${f.p99.toFixed(2)} |`,
    ),
    '',
    '| median of the rounds | events/s | delay p50 ms | delay p99 ms |',
    '| --- | ---: | ---: | ---: |',
    `| bare ws forwarder (baseline) | ${b.eps.toFixed(0)} | ${b.p50.toFixed(2)} | ${b.p99.toFixed(2)} |`,
    `| music-api live updates | ${m.eps.toFixed(0)} | ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} |`,
    `| music-api / baseline | **${(m.eps / b.eps).toFixed(2)}** | **${(m.p50 / b.p50).toFixed(2)}** | **${(m.p99 / b.p99).toFixed(2)}** |`,
    '',
    'Events/s: higher is better (a ratio below 1 is the cost of Redis, identity and bounds); delays: lower is better. Both sides share this process with the 1,000 clients and the publisher, so a loaded machine inflates both alike.',
    '',
  ].join('\n');
  await writeBenchResult('live-updates', md);
}

if (process.argv.includes('--serve')) {
  if (process.env.BENCH_SIDE === 'bare') await serveBare();
  else await serveMusic();
} else {
  await main();
}
