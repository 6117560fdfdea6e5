import { describe, expect, it } from 'vitest';
import { codeLine, meaningfulLines, readJson, repeatedMemberName } from './reading.js';

describe('meaningfulLines', () => {
  it('ends lines at LF, CRLF and CR alike and drops blank lines and edge spacing', () => {
    expect(meaningfulLines('a\r\n\r\n  b \t\rc\n \t\n')).toEqual(['a', 'b', 'c']);
    expect(meaningfulLines('\u00a0a')).toEqual(['\u00a0a']);
  });
});

describe('codeLine', () => {
  it('gives one normal form to quote styles, spacing between tokens and a final semicolon', () => {
    const normal = "router.get('/api/a',handlers.listA)";
    for (const line of [
      "router.get('/api/a', handlers.listA);",
      'router.get("/api/a", handlers.listA)',
      'router.get(`/api/a`,\thandlers.listA) ;',
      "router . get ( '/api/a' , handlers.listA ) ;",
    ])
      expect(codeLine(line), line).toBe(normal);
  });
  it('keeps what is meaning: literal insides, word separation, templates, escapes, unclosed quotes', () => {
    expect(codeLine("x('/api/ a')")).toBe("x('/api/ a')");
    expect(codeLine('export const V = 1')).toBe('export const V=1');
    expect(codeLine('export  const\tV = 1')).toBe('export const V=1');
    expect(codeLine('exportconst V = 1')).not.toBe(codeLine('export const V = 1'));
    expect(codeLine('x(`/a/${b}`)')).toBe('x(`/a/${b}`)');
    expect(codeLine("x('it\\'s')")).toBe("x('it\\'s')");
    expect(codeLine("x('open")).toBe("x('open");
    expect(codeLine('x();;')).toBe('x();');
  });
});

describe('JSON', () => {
  it('finds a member name repeated in one object, escapes decoded, at any depth', () => {
    expect(repeatedMemberName('{"a": 1, "b": {"a": 2}}')).toBeUndefined();
    expect(repeatedMemberName('{"a": 1, "\\u0061": 2}')).toBe('a');
    expect(repeatedMemberName('[{}, {"x": [1, {"y": 1, "y": 2}]}]')).toBe('y');
    expect(repeatedMemberName('{"a": {}, "b": "a", "c": ["a", "a"]}')).toBeUndefined();
  });
  it('reads one JSON document, or says why not', () => {
    expect(readJson('{"a": 6e2}\r\n')).toEqual({ value: { a: 600 } });
    expect(readJson('\ufeff{}')).toEqual({ invalid: true });
    expect(readJson('{"a": 1, "a": 1}')).toEqual({ repeated: 'a' });
  });
});
