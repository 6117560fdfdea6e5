import { describe, expect, it } from 'vitest';
import {
  DslError,
  FEATURE_NAMES,
  MAX_DEPTH,
  canonicalForm,
  parseExpression,
  tryParseExpression,
} from './index.js';

function error(src: string): DslError {
  const r = tryParseExpression(src);
  if (r.ok) throw new Error(`expected ${src} to fail`);
  return r.error;
}

const canon = (src: string): string => canonicalForm(parseExpression(src));

describe('parser and canonical form', () => {
  it('applies the precedence: => lowest, then or, and, not, comparisons, + -, *', () => {
    expect(canon('is_tree or is_connected and not is_bipartite => n>=3')).toBe(
      'is_tree or is_connected and not is_bipartite => n >= 3',
    );
    expect(canon('(is_tree or is_connected) and is_bipartite')).toBe(
      '(is_tree or is_connected) and is_bipartite',
    );
    expect(canon('((is_tree))')).toBe('is_tree');
    expect(canon('n + m * 2 <= 3 * (n - 1)')).toBe('n + m * 2 <= 3 * (n - 1)');
    expect(canon('(n + m) * 2 == 10')).toBe('(n + m) * 2 == 10');
    expect(canon('not not is_tree')).toBe('not not is_tree');
    expect(canon('not (is_tree and is_connected)')).toBe('not (is_tree and is_connected)');
    expect(canon('not n == m')).toBe('not n == m');
  });

  it('makes => right-associative', () => {
    const e = parseExpression('is_tree => is_forest => is_bipartite');
    expect(e.kind).toBe('implies');
    if (e.kind === 'implies') expect(e.right.kind).toBe('implies');
    expect(canonicalForm(e)).toBe('is_tree => is_forest => is_bipartite');
    expect(canon('(is_tree => is_forest) => is_bipartite')).toBe('(is_tree => is_forest) => is_bipartite');
  });

  it('flattens and/or chains, including parenthesised ones', () => {
    expect(canon('is_tree and (is_forest and is_bipartite)')).toBe('is_tree and is_forest and is_bipartite');
    expect(canon('(is_tree or is_forest) or is_bipartite')).toBe('is_tree or is_forest or is_bipartite');
  });

  it('chains comparisons', () => {
    const e = parseExpression('2 <= max_degree <= 4');
    expect(e.kind).toBe('compare');
    if (e.kind === 'compare') expect(e.ops).toEqual(['<=', '<=']);
    expect(canon('2<=max_degree<=4')).toBe('2 <= max_degree <= 4');
    expect(canon('is_tree == is_forest != is_connected')).toBe('is_tree == is_forest != is_connected');
    expect(canon('(n < m) == is_tree')).toBe('(n < m) == is_tree');
  });

  it('normalises numbers, whitespace and unary minus', () => {
    expect(canon('  density\t>= 0.50 and n >= 007 and m - -1 > 1.0  ')).toBe(
      'density >= 0.5 and n >= 7 and m - -1 > 1',
    );
    expect(canon('-(n - m) < 0')).toBe('-(n - m) < 0');
    expect(canon('- - n < 0')).toBe('-(-n) < 0');
    expect(canon('true and not false')).toBe('true and not false');
  });

  it('round-trips: parsing the canonical form gives the same canonical form', () => {
    for (const src of [
      'is_connected and is_triangle_free and not is_bipartite',
      'is_tree => m == n - 1',
      'n * (m - 1) - -2 * n >= 0 or (is_tree => is_forest) and not (girth < 5 or diameter > 2)',
      '(n - m) - 1 < n - (m - 1)',
    ])
      expect(canon(canon(src))).toBe(canon(src));
  });

  it('knows every feature of eval-tools.md', () => {
    expect(FEATURE_NAMES).toHaveLength(25);
    for (const f of FEATURE_NAMES) expect(tryParseExpression(`${f} == ${f}`).ok).toBe(true);
  });
});

describe('errors name the column and what was expected', () => {
  it('syntax errors', () => {
    let e = error('is_tree and');
    expect(e.kind).toBe('syntax');
    expect(e.column).toBe(12);
    expect(e.expected).toContain('a feature');
    expect(e.message).toMatch(/end of the expression at column 12/);

    e = error('is_tree is_forest');
    expect(e.column).toBe(9);
    expect(e.message).toMatch(/unexpected 'is_forest' at column 9/);

    e = error('(is_tree and is_forest');
    expect(e.column).toBe(23);
    expect(e.expected).toContain("')'");
    expect(e.message).toMatch(/close the '\(' at column 1/);

    e = error('is_tree)');
    expect(e.column).toBe(8);
    expect(e.message).toMatch(/no matching/);

    expect(error('').message).toMatch(/empty/);
    expect(error('   ').kind).toBe('syntax');
    expect(error('n >= 3.').column).toBe(8);
    expect(error('n >= .5').message).toMatch(/leading zero/);
    expect(error('n >= 3x').column).toBe(7);
    expect(error('n == not is_tree').message).toMatch(/parentheses/);
    expect(error('n >= 99999999999999999999').message).toMatch(/too large/);
  });

  it('division-like and foreign operators', () => {
    for (const [src, col, re] of [
      ['m / n > 1', 3, /division/],
      ['m % 2 == 0', 3, /remainder/],
      ['n ^ 2 > 1', 3, /\^/],
      ['is_tree && is_forest', 9, /'and'/],
      ['is_tree || is_forest', 9, /'or'/],
      ['!is_tree', 1, /'not'/],
      ['n = 3', 3, /'=='/],
      ['is_tree -> is_forest', 9, /'=>'/],
      ['n >= 3 ; drop', 8, /unexpected character/],
      ['n >= 3\u0000', 7, /U\+0000/],
    ] as const) {
      const e = error(src);
      expect({ src, col: e.column }).toEqual({ src, col });
      expect(e.message).toMatch(re);
    }
  });

  it('unknown features list the known ones and suggest the nearest', () => {
    const e = error('is_conected and n > 3');
    expect(e.kind).toBe('unknown_feature');
    expect(e.column).toBe(1);
    expect(e.message).toMatch(/Did you mean 'is_connected'\?/);
    expect(e.message).toContain(FEATURE_NAMES.join(', '));
    expect(e.expected).toEqual(FEATURE_NAMES);
    expect(error('is_tree AND is_forest').message).toMatch(/'and'\? Names are lower case/i);
    expect(error('n > 3 and frobnicate').message).not.toMatch(/Did you mean/);
  });

  it('type errors', () => {
    let e = error('is_tree + 1');
    expect(e.kind).toBe('type');
    expect(e.column).toBe(1);
    expect(e.message).toMatch(/needs a number.*true\/false/);

    e = error('n and m');
    expect(e.kind).toBe('type');
    expect(e.column).toBe(1);
    expect(e.message).toMatch(/'and' needs true\/false/);

    e = error('is_tree and m');
    expect(e.column).toBe(13);

    e = error('n');
    expect(e.kind).toBe('type');
    expect(e.message).toMatch(/must be true or false/);

    expect(error('is_tree < is_forest').kind).toBe('type');
    expect(error('is_tree == 1').message).toMatch(/compares true\/false with a number/);
    expect(error('not n').kind).toBe('type');
    expect(error('-is_tree == n').kind).toBe('type');
    expect(error('n * is_tree > 1').column).toBe(5);
    expect(error('n => is_tree').kind).toBe('type');
  });

  it('deep nesting is an error, not a stack overflow', () => {
    const ok = '('.repeat(MAX_DEPTH - 1) + 'is_tree' + ')'.repeat(MAX_DEPTH - 1);
    expect(tryParseExpression(ok).ok).toBe(true);
    const deep = '('.repeat(240) + 'is_tree' + ')'.repeat(240);
    const e = error(deep);
    expect(e.kind).toBe('too_deep');
    expect(e.column).toBe(MAX_DEPTH + 1);
    expect(error('not '.repeat(120) + 'is_tree').kind).toBe('too_deep');
    expect(error('-'.repeat(200) + 'n > 0').kind).toBe('too_deep');
    expect(error('true=>'.repeat(70) + 'true').kind).toBe('too_deep');
    expect(tryParseExpression('is_tree => '.repeat(44) + 'true').ok).toBe(true);
  });

  it('long flat chains are fine (they do not nest)', () => {
    const src = Array.from({ length: 40 }, () => 'is_tree').join(' and ');
    expect(tryParseExpression(src).ok).toBe(true);
    expect(tryParseExpression(Array.from({ length: 120 }, () => 'n').join('+') + ' > 0').ok).toBe(true);
  });

  it('refuses more than 500 characters', () => {
    const e = error('n >= 1 and '.repeat(50) + 'true');
    expect(e.kind).toBe('too_long');
    expect(e.message).toMatch(/at most 500/);
  });

  it('parseExpression throws a DslError', () => {
    expect(() => parseExpression('n >')).toThrow(DslError);
  });
});
