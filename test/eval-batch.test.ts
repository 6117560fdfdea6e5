/* eslint-disable @typescript-eslint/no-explicit-any -- receipts, problems and stats are parsed JSON */
import { EventEmitter, once } from 'node:events';
import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCardWarmed } from '../src/eval/app.js';
import { resolveGraphKernel } from '../src/eval/speed/graph-kernel-native.js';
import type { ChunkTask } from '../src/eval/batch/chunk.js';
import { createVerifierPool, type VerifierPool } from '../src/eval/speed/pool.js';
import { TOOLS } from '../src/eval/registry.js';
import { answerLines, ndjson, NDJSON_HEADERS, postBatch, receiptText } from './helpers/batch.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { listenLocal } from './helpers/raw-http.js';

let app: FastifyInstance;
/** The same service with chunks of small lines on the pool threads too (EVAL_BATCH_CHUNKS=pool). */
let poolApp: FastifyInstance;
let examples: Record<string, any>;
const endpoint = (toolId: string): string => TOOLS.find((t) => t.id === toolId)!.path;

beforeAll(async () => {
  app = await makeEvalApp({ EVAL_BATCH_LINE_LIMIT: '8kb' });
  poolApp = await makeEvalApp({ EVAL_BATCH_LINE_LIMIT: '8kb', EVAL_BATCH_CHUNKS: 'pool' });
  examples = (await app.inject('/api/examples')).json().examples;
});
afterAll(async () => {
  await app.close();
  await poolApp.close();
});

/** Line i of the mixed batch: every tool, the gate in six variants, a search every 100th line. */
function mixedLine(i: number): { id: string; tool: string; request: unknown } {
  const others = TOOLS.map((t) => t.id).filter((id) => id !== 'counterexample');
  const tool = i % 100 === 50 ? 'counterexample' : others[i % others.length]!;
  let request = examples[tool];
  if (tool === 'gate') {
    const flipped = `q-0${(i % 6) + 1}`;
    request = { ...request, candidate: { ...request.candidate, [flipped]: i % 12 < 6 } };
  }
  return { id: `line-${i}`, tool, request };
}

describe('POST /api/batch', () => {
  it.each(['event-loop', 'pool'])(
    'answers 1000 mixed lines in input order, each receipt the bytes its endpoint answers (chunks on %s)',
    async (chunks) => {
      const lines = Array.from({ length: 1000 }, (_, i) => mixedLine(i));
      const res = await postBatch(chunks === 'pool' ? poolApp : app, ndjson(lines));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      expect(res.headers['x-batch-lines']).toBe('1000');
      const answers = answerLines(res.body);
      expect(answers.map((a) => a.line.id)).toEqual(lines.map((l) => l.id));
      const singles = new Map<string, string>();
      for (const [i, { raw, line }] of answers.entries()) {
        expect(line.status, raw.slice(0, 300)).toBe(200);
        const body = JSON.stringify(lines[i]!.request);
        const key = `${lines[i]!.tool} ${body}`;
        if (!singles.has(key)) {
          const single = await postJson(app, endpoint(lines[i]!.tool), body);
          expect(single.statusCode).toBe(200);
          singles.set(key, single.body);
        }
        expect(receiptText(raw)).toBe(singles.get(key));
      }
      // Several gate variants beside one request per other tool: the batch really was mixed.
      expect(singles.size).toBeGreaterThan(TOOLS.length);
      expect(new Set(answers.map((a) => a.line.receipt.verdict)).size).toBeGreaterThan(1);
    },
    120_000,
  );

  it('answers a bad line in the middle with a problem line and runs the rest', async () => {
    const good = (i: number) => mixedLine(i);
    const res = await postBatch(
      app,
      ndjson([good(1), good(2), '{"id": "broken", "tool": ', good(3), good(4)]),
    );
    expect(res.statusCode).toBe(200);
    const answers = answerLines(res.body).map((a) => a.line);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400, 200, 200]);
    expect(answers[2]).toMatchObject({ id: null, problem: { code: 'invalid_json', status: 400 } });
    expect(answers[2].problem.hint).toMatch(/"id".*"tool".*"request"/);
    expect(answers[3].id).toBe('line-3');
  });

  it('names every bad line for what it is, keeping its id when it had one', async () => {
    const gate = examples.gate;
    const res = await postBatch(
      app,
      ndjson([
        '[1, 2]',
        '"gate"',
        { tool: 'gate', request: gate },
        { id: 7, tool: 'gate', request: gate },
        { id: '', tool: 'gate', request: gate },
        { id: 'ctl\u0007', tool: 'gate', request: gate },
        { id: 'unknown', tool: 'gates', request: gate },
        { id: 'no-tool', request: gate },
        { id: 'no-request', tool: 'gate' },
        { id: 'extra', tool: 'gate', request: gate, priority: 1 },
        { id: 'too-long', tool: 'gate', request: { ...gate, baseline_name: 'x'.repeat(9000) } },
        { id: 'invalid', tool: 'gate', request: { baseline: gate.baseline } },
        { id: 'ok', tool: 'gate', request: gate },
      ]),
    );
    expect(res.statusCode).toBe(200);
    const answers = answerLines(res.body).map((a) => a.line);
    const brief = answers.map((a) => [a.id, a.status, a.problem?.code ?? 'receipt']);
    expect(brief).toEqual([
      [null, 400, 'invalid_input'],
      [null, 400, 'invalid_input'],
      [null, 400, 'invalid_input'],
      [null, 400, 'invalid_input'],
      [null, 400, 'invalid_input'],
      [null, 400, 'invalid_input'],
      ['unknown', 400, 'invalid_input'],
      ['no-tool', 400, 'invalid_input'],
      ['no-request', 400, 'invalid_input'],
      ['extra', 400, 'invalid_input'],
      [null, 413, 'payload_too_large'],
      ['invalid', 400, 'invalid_input'],
      ['ok', 200, 'receipt'],
    ]);
    expect(answers[0].problem.detail).toMatch(/not a JSON object/);
    expect(answers[2].problem.detail).toMatch(/no "id"/);
    expect(answers[5].problem.detail).toMatch(/U\+0007/);
    expect(answers[6].problem.detail).toMatch(/one of counterexample, gate/);
    expect(answers[9].problem.detail).toMatch(/Unknown member "priority"/);
    expect(answers[10].problem.detail).toMatch(/batch line limit of 8192 bytes/);
    // The tool's own problem, exactly what its endpoint answers for the same request.
    const single = await postJson(app, '/api/gate', { baseline: gate.baseline });
    expect(answers[11].problem).toEqual(single.json());
  });

  it('refuses a batch it cannot read with a clear 4xx problem', async () => {
    const line = ndjson([mixedLine(1)]);
    const cases = [
      { res: await postBatch(app, line, { 'content-type': 'application/json' }), status: 415 },
      { res: await postBatch(app, line, {}), status: 415 },
      { res: await postBatch(app, '\n \n'), status: 400 },
      { res: await postBatch(app, ndjson(Array.from({ length: 10_001 }, () => '{}'))), status: 413 },
    ];
    for (const { res, status } of cases) {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    expect(cases[0]!.res.json().detail).toMatch(/application\/x-ndjson/);
    expect(cases[3]!.res.json().detail).toMatch(/more than 10000 lines/);
  });

  it('counts each line in its tool stats', async () => {
    const before = (await app.inject('/api/stats')).json().tools;
    const res = await postBatch(
      app,
      ndjson([mixedLine(0), mixedLine(1), mixedLine(8), { id: 'bad', tool: 'gate', request: {} }, '{']),
    );
    expect(res.statusCode).toBe(200);
    const after = (await app.inject('/api/stats')).json().tools;
    const delta = (tool: string, field: string) => (after[tool]?.[field] ?? 0) - (before[tool]?.[field] ?? 0);
    const tools = [mixedLine(0).tool, mixedLine(1).tool, mixedLine(8).tool];
    for (const t of new Set(tools)) expect(delta(t, 'status_2xx')).toBe(tools.filter((x) => x === t).length);
    // The tool's own 400 counts for the gate; a line with no readable tool counts nowhere.
    expect(delta('gate', 'status_4xx')).toBe(1);
  });

  it('is in the OpenAPI document, the catalog and /llms.txt', async () => {
    const spec = (await app.inject('/openapi.json')).json();
    expect(spec.paths['/api/batch'].post.requestBody.content['application/x-ndjson']).toBeTruthy();
    expect(spec.components.schemas.BatchLine.oneOf).toHaveLength(TOOLS.length);
    expect((await app.inject('/api/catalog')).json().batch).toMatchObject({
      endpoint: '/api/batch',
      content_type: 'application/x-ndjson',
      max_lines: 10_000,
    });
    expect((await app.inject('/llms.txt')).body).toMatch(/POST \/api\/batch \(application\/x-ndjson\)/);
  });
});

describe('a client that goes away', () => {
  /**
   * The real pool, with each dispatched line counted (one per single task, a chunk's lines per
   * chunk task) and an event when no task is left running.
   */
  function observedPool(): {
    pool: VerifierPool;
    dispatched: () => number;
    running: () => number;
    idle: EventEmitter;
  } {
    const inner = createVerifierPool({ size: 1, graphKernel: resolveGraphKernel('auto') });
    const idle = new EventEmitter();
    let dispatched = 0;
    let running = 0;
    const track = <R>(lines: number, task: Promise<R>): Promise<R> => {
      dispatched += lines;
      running++;
      return task.finally(() => {
        if (--running === 0) idle.emit('idle');
      });
    };
    const pool: VerifierPool = {
      ...inner,
      run: (toolId, bytes) => track(1, inner.run(toolId, bytes)),
      runTask: <T, R>(file: string, task: T) =>
        track(file === 'batch-chunk' ? (task as ChunkTask).ids.length : 0, inner.runTask<T, R>(file, task)),
    };
    return { pool, dispatched: () => dispatched, running: () => running, idle };
  }

  /** Sends `lines` as one batch, reads until 10 answer lines arrived, disconnects; the lines seen. */
  async function readTenThenDisconnect(
    app: FastifyInstance,
    lines: { id: string }[],
  ): Promise<{ first: string[]; seen: number }> {
    const url = await listenLocal(app);
    const serverSockets: Socket[] = [];
    app.server.on('connection', (s: Socket) => serverSockets.push(s));
    let seen = 0;
    const first = await new Promise<string[]>((resolve, reject) => {
      const req = httpRequest(`${url}/api/batch`, { method: 'POST', headers: NDJSON_HEADERS }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          const complete = text.split('\n').slice(0, -1);
          if (complete.length >= 10) {
            seen = complete.length;
            res.destroy();
            resolve(complete.slice(0, 10));
          }
        });
        res.on('error', () => undefined);
      });
      req.on('error', reject);
      req.end(ndjson(lines));
    });
    expect(first.map((l) => JSON.parse(l).id)).toEqual(lines.slice(0, 10).map((l) => l.id));
    // The server sees the disconnect (a reset, when unread answers were still in the client's buffers).
    await Promise.all(
      serverSockets.filter((s) => !s.destroyed).map((s) => new Promise((closed) => s.once('close', closed))),
    );
    return { first, seen };
  }

  it('stops dispatching lines once the client disconnects after reading 10', async () => {
    const observed = observedPool();
    const concurrency = 4;
    const pooled = await makeEvalApp(
      { EVAL_INLINE_MAX_BYTES: '0', EVAL_BATCH_CONCURRENCY: String(concurrency) },
      { pool: observed.pool },
    );
    try {
      await reportCardWarmed(pooled);
      const search = { ...examples.counterexample, restarts: 2 };
      // Start the worker (its first task loads the tool code) before counting.
      expect((await postJson(pooled, '/api/counterexample', search)).statusCode).toBe(200);
      const base = observed.dispatched();
      const lines = Array.from({ length: 1000 }, (_, i) => ({
        id: `s${i}`,
        tool: 'counterexample',
        request: search,
      }));
      const { seen } = await readTenThenDisconnect(pooled, lines);
      // Then the tasks already on the thread finish.
      if (observed.running() > 0) await once(observed.idle, 'idle');
      const stopped = observed.dispatched() - base;
      // The lines the client read, a window in flight, and a few answered after its last read
      // but before the server saw the close: nowhere near the 1000 sent.
      expect(stopped).toBeGreaterThanOrEqual(seen);
      expect(stopped).toBeLessThanOrEqual(seen + 2 * concurrency + 2);
      // Nothing more starts later: the next batch is the only new task.
      const next = await postBatch(
        pooled,
        ndjson([{ id: 'after', tool: 'counterexample', request: search }]),
      );
      expect(answerLines(next.body)[0]!.line.status).toBe(200);
      expect(observed.dispatched() - base).toBe(stopped + 1);
    } finally {
      await pooled.close();
      await observed.pool.destroy();
    }
  }, 120_000);

  it('stops dispatching chunks of small lines to the pool once the client disconnects', async () => {
    const observed = observedPool();
    const concurrency = 2;
    const chunked = await makeEvalApp(
      { EVAL_BATCH_CONCURRENCY: String(concurrency), EVAL_BATCH_CHUNKS: 'pool' },
      { pool: observed.pool },
    );
    try {
      await reportCardWarmed(chunked);
      const gate = (i: number) => ({ id: `g${i}`, tool: 'gate', request: examples.gate });
      // Load the chunk task file on the thread before counting.
      const warm = await postBatch(chunked, ndjson(Array.from({ length: 8 }, (_, i) => gate(i))));
      expect(answerLines(warm.body).every((a) => a.line.status === 200)).toBe(true);
      const base = observed.dispatched();
      expect(base).toBeGreaterThan(0);
      const total = 10_000;
      await readTenThenDisconnect(
        chunked,
        Array.from({ length: total }, (_, i) => gate(i)),
      );
      if (observed.running() > 0) await once(observed.idle, 'idle');
      const stopped = observed.dispatched() - base;
      // What the socket buffers held (each answer line is ~3 KB) and a window of chunks in
      // flight (256 gate lines each, every other one on the event loop): a small part of the batch.
      expect(stopped).toBeGreaterThanOrEqual(10);
      expect(stopped).toBeLessThan(total / 4);
      // Nothing more starts later: a lone line runs inline, and the count stays put.
      const next = await postBatch(chunked, ndjson([gate(0)]));
      expect(answerLines(next.body)[0]!.line.status).toBe(200);
      expect(observed.dispatched() - base).toBe(stopped);
    } finally {
      await chunked.close();
      await observed.pool.destroy();
    }
  }, 120_000);
});

describe('rate limits count lines', () => {
  it('charges each line to the client bucket single calls use, and 429s a batch past it', async () => {
    const limited = await makeEvalApp({
      RATE_LIMITS: 'on',
      EVAL_RATE_LIMIT_PER_MINUTE: '60',
      EVAL_RATE_LIMIT_BURST: '4',
    });
    try {
      const five = Array.from({ length: 5 }, (_, i) => mixedLine(i * 8 + 1));
      const res = await postBatch(limited, ndjson(five));
      expect(answerLines(res.body).map((a) => a.line.status)).toEqual([200, 200, 200, 200, 200]);
      // One request, five lines: the bucket (burst 4 + 1) is empty.
      const single = await postJson(limited, '/api/gate', examples.gate);
      expect(single.statusCode).toBe(429);
      const again = await postBatch(limited, ndjson([mixedLine(1)]));
      expect(again.statusCode).toBe(429);
      expect(again.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });

  it('slows a batch larger than the bucket to the line rate instead of failing it', async () => {
    const limited = await makeEvalApp({
      RATE_LIMITS: 'on',
      EVAL_RATE_LIMIT_PER_MINUTE: '1200',
      EVAL_RATE_LIMIT_BURST: '2',
    });
    try {
      const started = performance.now();
      const res = await postBatch(limited, ndjson(Array.from({ length: 9 }, (_, i) => mixedLine(i * 8 + 1))));
      const elapsed = performance.now() - started;
      expect(answerLines(res.body).every((a) => a.line.status === 200)).toBe(true);
      // Three lines at once (burst 2 + 1), six more at one per 50 ms.
      expect(elapsed).toBeGreaterThanOrEqual(6 * 50 - 20);
    } finally {
      await limited.close();
    }
  });
});
