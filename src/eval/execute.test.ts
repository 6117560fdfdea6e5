import { describe, expect, it } from 'vitest';
import { executeTool } from './execute.js';
import { getTool } from './registry.js';

describe('executeTool', () => {
  it('answers a number beyond the double range in a free-form field with a 400 naming it', () => {
    const text = JSON.stringify(getTool('leakage').example).replace('"exam":[{', '"exam":[{"extra":1e400,');
    expect(text).toContain('1e400');
    const out = executeTool('leakage', Buffer.from(text));
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problem.status).toBe(400);
    expect(out.problem.detail).toMatch(/beyond the range of a 64-bit float at \/exam\/0\/extra/);
    expect(out.problem.errors).toEqual([
      { path: '/exam/0/extra', message: 'is a number too large to represent' },
    ]);
  });

  it('serves the receipt as UTF-8 bytes that parse back to the same receipt twice', () => {
    const bytes = Buffer.from(JSON.stringify(getTool('gate').example));
    const a = executeTool('gate', bytes);
    const b = executeTool('gate', bytes);
    expect(a.ok && b.ok && a.body === b.body).toBe(true);
    if (a.ok) expect(JSON.parse(a.body).tool).toBe('gate');
  });
});
