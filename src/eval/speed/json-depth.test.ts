import { describe, expect, it } from 'vitest';
import { firstTooDeep, MAX_JSON_DEPTH } from './json-depth.js';

describe('JSON nesting bound', () => {
  it('accepts ordinary documents and exactly the maximum depth', () => {
    expect(firstTooDeep('{"a":[1,{"b":[2]}],"c":"x"}')).toBe(-1);
    expect(firstTooDeep('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).toBe(-1);
  });

  it('finds the first bracket past the maximum', () => {
    const text = '{"x":' + '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH) + '}';
    expect(firstTooDeep(text)).toBe(5 + MAX_JSON_DEPTH - 1);
  });

  it('ignores brackets inside strings, including after escaped quotes', () => {
    const inside = '"' + '[{'.repeat(500) + '\\"[[[' + '"';
    expect(firstTooDeep(`{"s":${inside}}`)).toBe(-1);
    expect(firstTooDeep(`["\\\\",${'['.repeat(70)}`)).toBeGreaterThan(0);
  });
});
