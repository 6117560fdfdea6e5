import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveGraphKernel } from '../speed/graph-kernel-native.js';
import { createVerifierPool } from '../speed/pool.js';
import { getTool } from '../registry.js';
import type { UsageCounters } from '../repositories/usage-counters.js';
import { inlinePlacement, toolRunner } from '../speed/run-tool.js';
import type { ChunkResult, ChunkTask } from './chunk.js';
import { batchDispatcher } from './dispatch.js';
import { splitLines } from './lines.js';

const pool = createVerifierPool({ size: 1, graphKernel: resolveGraphKernel('auto') });
afterAll(() => pool.destroy());

/** Counts the lines each tool was charged, as the stats would. */
function countingUsage(): UsageCounters & { lines: number } {
  const usage = {
    lines: 0,
    record: () => {
      usage.lines++;
    },
    snapshot: () => Promise.resolve({ since: null, tools: {} }),
    close: () => Promise.resolve(),
  };
  return usage;
}

const GATE = JSON.stringify(getTool('gate').example);
const gateLine = (i: number) => `{"id":"g${i}","tool":"gate","request":${GATE}}`;

function gateDispatcher(lines: number, line: (i: number) => string = gateLine) {
  const body = Buffer.from(Array.from({ length: lines }, (_, i) => line(i)).join('\n'));
  const usage = countingUsage();
  const runsInline = inlinePlacement(16 * 1024);
  const dispatch = batchDispatcher(
    splitLines(body),
    {
      runTool: toolRunner(pool, runsInline),
      runsInline,
      runChunk: (task: ChunkTask) => pool.runTask<ChunkTask, ChunkResult>('batch-chunk', task),
      poolSize: 1,
      poolChunks: false,
      usage,
      lineLimit: 1 << 20,
    },
    pino({ enabled: false }),
  );
  return { dispatch, usage };
}

describe('batchDispatcher', () => {
  it('runs a chunk on the event loop in slices and stops between them once the answer is gone', async () => {
    const { dispatch, usage } = gateDispatcher(1000);
    const stop = new AbortController();
    const unit = dispatch(0, 1000, stop.signal);
    expect(unit.lines).toBe(256);
    // The first slice ran before dispatch returned; the client leaves before the next.
    stop.abort();
    const text = Buffer.from(await unit.text).toString('utf8');
    const answered = text.split('\n').filter((l) => l !== '');
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length).toBeLessThan(256);
    expect(answered[0]).toMatch(/^\{"id":"g0","status":200,"receipt":/);
    // Only the lines that ran are counted.
    expect(usage.lines).toBe(answered.length);
  });

  it('runs one inline chunk at a time: the next waits instead of adding its slices to every turn', async () => {
    const { dispatch, usage } = gateDispatcher(1000);
    const signal = new AbortController().signal;
    const first = dispatch(0, 1000, signal);
    const ranOfFirst = usage.lines;
    expect(ranOfFirst).toBeGreaterThan(0);
    const second = dispatch(first.lines, 1000 - first.lines, signal);
    expect(usage.lines).toBe(ranOfFirst);
    const texts = await Promise.all([first.text, second.text]);
    const answered = texts.flatMap((t) =>
      Buffer.from(t)
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== ''),
    );
    expect(answered.length).toBe(first.lines + second.lines);
    expect(answered[first.lines]).toMatch(new RegExp(`^\\{"id":"g${first.lines}","status":200,`));
  });

  it('answers a run of bad lines as one unit, within the lines granted, each line in its place', async () => {
    // Lines 0-599 have no id, 600 is good, 601-609 name no tool.
    const line = (i: number) =>
      i < 600 ? `{"tool":"gate","request":${GATE}}` : i === 600 ? gateLine(i) : `{"id":"b${i}","request":{}}`;
    const { dispatch, usage } = gateDispatcher(610, line);
    const signal = new AbortController().signal;
    const units = [dispatch(0, 40, signal)];
    expect(units[0]!.lines).toBe(40); // the lines granted, no more
    let from = 40;
    while (from < 610) {
      const unit = dispatch(from, 610 - from, signal);
      units.push(unit);
      from += unit.lines;
    }
    // Units of at most 64 bad lines, so one stays a small slice of the event loop.
    expect(units.map((u) => u.lines)).toEqual([40, ...Array<number>(8).fill(64), 48, 1, 9]);
    const answered = (await Promise.all(units.map((u) => u.text)))
      .map((t) => Buffer.from(t).toString('utf8'))
      .join('')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id: string | null; status: number; problem?: { detail: string } });
    expect(answered).toHaveLength(610);
    expect(answered[0]).toMatchObject({ id: null, status: 400 });
    expect(answered[0]!.problem!.detail).toMatch(/no "id" member/);
    expect(answered[600]).toMatchObject({ id: 'g600', status: 200 });
    expect(answered[609]).toMatchObject({ id: 'b609', status: 400 });
    expect(answered[609]!.problem!.detail).toMatch(/"tool" must be one of/);
    expect(usage.lines).toBe(1); // only the line that ran is a tool call
  });
});
