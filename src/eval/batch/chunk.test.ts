import { describe, expect, it } from 'vitest';
import { executeTool } from '../execute.js';
import { getTool } from '../registry.js';
import { problemLine, receiptLine } from './answer.js';
import { runChunk, type ChunkTask } from './chunk.js';

function task(requests: { tool: string; id: string; body: string }[]): ChunkTask {
  const bytes = Buffer.from(requests.map((r) => r.body).join(''));
  const ends: number[] = [];
  let at = 0;
  for (const r of requests) ends.push((at += Buffer.byteLength(r.body)));
  return { bytes, tools: requests.map((r) => r.tool), ids: requests.map((r) => r.id), ends, firstLine: 7 };
}

describe('runChunk', () => {
  it('answers each line as its single call would, a bad request with its problem in place', () => {
    const gate = JSON.stringify(getTool('gate').example);
    const memory = JSON.stringify(getTool('memory').example);
    const invalid = JSON.stringify({ baseline: (getTool('gate').example as { baseline: unknown }).baseline });
    const lines = [
      { tool: 'gate', id: 'a', body: gate },
      { tool: 'gate', id: 'b"é', body: invalid },
      { tool: 'memory', id: 'c', body: memory },
    ];
    const result = runChunk(task(lines));
    const expected = lines.map(({ tool, id, body }) => {
      const outcome = executeTool(tool, Buffer.from(body));
      return outcome.ok ? receiptLine(id, outcome.body) : problemLine(id, outcome.problem);
    });
    expect(Buffer.from(result.bytes).toString('utf8')).toBe(expected.join(''));
    expect(result.statuses).toEqual([200, 400, 200]);
    expect(result.verdicts[0]).toMatch(/^(PASS|HOLD|BLOCK)$/);
    expect(result.verdicts[1]).toBeNull();
    expect(result.failures).toEqual([]);
    // The buffer is its own, so it can be moved across threads whole.
    expect(result.bytes.byteLength).toBe(result.bytes.buffer.byteLength);
  });
});
