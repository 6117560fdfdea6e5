/**
 * The benchmarks' workloads (bench/lib/workloads.ts): one per registered tool, each a request its
 * tool answers, holding every size-bounded field it sends at 90-100% of the schema's limit.
 */
import { describe, expect, it } from 'vitest';
import { fieldFills, workloads } from '../bench/lib/workloads.js';
import { executeTool } from '../src/eval/execute.js';
import { TOOLS } from '../src/eval/registry.js';

describe('near-limit workloads', () => {
  const all = workloads();

  it('has one workload per registered tool, the same on every build', () => {
    expect(all.map((w) => w.tool.id)).toEqual(TOOLS.map((t) => t.id));
    expect(workloads().map((w) => w.body)).toEqual(all.map((w) => w.body));
  });

  it.each(all.map((w) => [w.tool.id, w] as const))('%s: near its limits, and answered', (_id, w) => {
    const fills = fieldFills(w.tool.schema, JSON.parse(w.body));
    expect(fills.length, 'a bounded field the workload fills').toBeGreaterThan(0);
    for (const { field, size, limit } of fills) {
      expect(size / limit, `${field}: ${size} of ${limit}`).toBeGreaterThanOrEqual(0.9);
      expect(size, field).toBeLessThanOrEqual(limit);
    }
    const out = executeTool(w.tool.id, w.body);
    expect(out.ok, out.ok ? '' : JSON.stringify(out.problem)).toBe(true);
  });
});
