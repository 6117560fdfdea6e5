/**
 * Scenario 6: a verify-worker host dies mid-batch. The same mixed batch is sent through lb twice:
 * with both verify-workers up (the reference), then with verify1 killed (SIGKILL) as soon as it
 * holds a job's lock. Every line is answered once, and every answer is the reference's bytes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import { examples } from '../../src/eval/routes/info.js';
import { TOOLS } from '../../src/eval/registry.js';
import { LB, type Cluster } from './cluster.js';
import { REDIS_URL } from './data-host.js';
import { killHost } from './netns.js';
import { record } from './results.js';

const LINES = 300;

function batchBody(): string {
  const all = examples().examples as Record<string, Record<string, unknown>>;
  const tools = TOOLS.map((t) => t.id);
  return (
    Array.from({ length: LINES }, (_, i) => {
      const tool = tools[i % tools.length]!;
      return JSON.stringify({ id: `line-${i}`, tool, request: all[tool] });
    }).join('\n') + '\n'
  );
}

async function sendBatch(body: string): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${LB}/api/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body,
  });
  return { status: res.status, text: await res.text(), ms: performance.now() - started };
}

export async function verifyHostDies(cluster: Cluster): Promise<void> {
  const body = batchBody();
  const reference = await sendBatch(body);
  expect(reference.status, reference.text.slice(0, 300)).toBe(200);
  const victimId = (
    JSON.parse(cluster.process('verify1').lines.find((l) => l.includes('verify-worker ready'))!) as {
      workerId: string;
    }
  ).workerId;
  const redis = new Redis(REDIS_URL);
  let sending = true;
  const killed = (async (): Promise<number | undefined> => {
    while (sending) {
      const ids = await redis.lrange('bull:verify:active', 0, -1);
      const locks = ids.length ? await redis.mget(ids.map((id) => `bull:verify:${id}:lock`)) : [];
      if (locks.some((token) => token?.startsWith(victimId))) return killHost('verify1');
      await sleep(5);
    }
    return undefined;
  })();
  const faulted = await sendBatch(body).finally(() => (sending = false));
  const processes = await killed;
  redis.disconnect();
  expect(processes, 'verify1 was killed while it held a job').toBeGreaterThan(0);
  expect(faulted.status).toBe(200);
  const refLines = reference.text.split('\n').filter(Boolean);
  const gotLines = faulted.text.split('\n').filter(Boolean);
  const ids = gotLines.map((l) => (JSON.parse(l) as { id: string }).id);
  expect(new Set(ids).size).toBe(LINES);
  expect(gotLines.length).toBe(LINES);
  let identical = 0;
  for (const [i, line] of gotLines.entries()) {
    expect(line, `line ${i}`).toBe(refLines[i]);
    identical += 1;
  }
  const statuses = new Map<number, number>();
  for (const l of gotLines) {
    const s = (JSON.parse(l) as { status: number }).status;
    statuses.set(s, (statuses.get(s) ?? 0) + 1);
  }
  await cluster.startVerify('verify1');
  record('6. A verify-worker dies mid-batch', [
    `A ${LINES}-line batch (the ${TOOLS.length} tools' examples in turn; EVAL_INLINE_MAX_BYTES=0, so every line crosses`,
    `the verify queue) through lb, first with both verify-workers up, then with verify1 killed (SIGKILL, ${processes}`,
    `process) as soon as it held a job's lock (VERIFY_LOCK_MS 5 s, stalled check every 5 s).`,
    '',
    '| run | status | lines answered | distinct ids | identical to the reference | wall (s) |',
    '| --- | -----: | -------------: | -----------: | -------------------------: | -------: |',
    `| reference | ${reference.status} | ${refLines.length} | ${LINES} | - | ${(reference.ms / 1000).toFixed(1)} |`,
    `| verify1 killed | ${faulted.status} | ${gotLines.length} | ${new Set(ids).size} | ${identical} | ${(faulted.ms / 1000).toFixed(1)} |`,
    '',
    `- line statuses in the faulted run: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`,
  ]);
}
