import { describe, expect, it } from 'vitest';
import { FingerprintTier, graphsUpTo } from './fingerprint.js';

describe('FingerprintTier', () => {
  it('covers 11, 75 or 1099 labelled graphs for max_n 3, 4, 5', () => {
    expect([3, 4, 5].map(graphsUpTo)).toEqual([11, 75, 1099]);
  });

  it('gives equal fingerprints to equivalent expressions and different ones otherwise', () => {
    const tier = new FingerprintTier(4);
    const a = tier.of('is_connected and is_tree')!;
    const b = tier.of('is_tree and is_connected')!;
    expect(a.sha256).toBe(b.sha256);
    expect(a.canonical).not.toBe(b.canonical);
    // A tree is a connected forest: same behaviour, different words.
    expect(tier.of('is_forest and is_connected')!.sha256).toBe(a.sha256);
    expect(tier.of('is_connected')!.sha256).not.toBe(a.sha256);
    expect(tier.of('not (is_connected and is_tree)')!.sha256).not.toBe(a.sha256);
  });

  it('folds case and compatibility characters before parsing', () => {
    const tier = new FingerprintTier(4);
    expect(tier.of('IS_TREE AND IS_CONNECTED')!.sha256).toBe(tier.of('is_connected and is_tree')!.sha256);
  });

  it('computes one truth table per distinct expression (canonical form)', () => {
    const tier = new FingerprintTier(5);
    tier.of('is_tree and n >= 3');
    tier.of('is_tree  and  n>=3');
    tier.of('(is_tree) and (n >= 3)');
    tier.of('is_tree and n >= 3');
    expect(tier.stats.truth_tables).toBe(1);
    expect(tier.stats.expression_rows).toBe(4);
  });

  it('distinguishes only on the graphs it covers: fingerprint_max_n matters', () => {
    // The claw K(1,3) needs 4 vertices; on at most 3 vertices every connected graph is claw-free.
    const small = new FingerprintTier(3);
    expect(small.of('is_connected and is_claw_free')!.sha256).toBe(small.of('is_connected')!.sha256);
    const large = new FingerprintTier(4);
    expect(large.of('is_connected and is_claw_free')!.sha256).not.toBe(large.of('is_connected')!.sha256);
  });

  it('marks constant expressions, which are never matched', () => {
    const tier = new FingerprintTier(4);
    expect(tier.of('n <= 4')!.constant).toBe(true);
    expect(tier.of('n >= 6 and is_tree')!.constant).toBe(false);
    expect(tier.of('is_tree')!.constant).toBeNull();
    expect(tier.stats.constant_rows).toBe(2);
  });

  it('records why DSL text over a parser limit is text only, and nothing for prose or syntax errors', () => {
    const tier = new FingerprintTier(4);
    const deep = '('.repeat(65) + 'is_tree' + ')'.repeat(65);
    expect(tier.of(deep)).toBeNull();
    expect(tier.textOnlyReason(deep)).toBe('nested deeper than 64 levels (column 65)');
    const long = Array.from({ length: 60 }, () => 'is_tree').join(' and ');
    expect(tier.of(long)).toBeNull();
    expect(tier.textOnlyReason(long)).toBe('longer than 500 characters');
    const huge = `n * 9007199254740991 > 0`;
    expect(tier.of(huge)).toBeNull();
    expect(tier.textOnlyReason(huge)).toBe('its arithmetic could exceed 2^53 - 1 (column 3)');
    for (const text of ['Prove that every tree has a leaf.', 'is_tree and', 'n'])
      expect([tier.of(text), tier.textOnlyReason(text)]).toEqual([null, null]);
  });

  it('returns null for prose and for malformed expressions', () => {
    const tier = new FingerprintTier(4);
    expect(tier.of('Prove that every tree has a leaf.')).toBeNull();
    expect(tier.of('is_tree and')).toBeNull();
    expect(tier.of('n')).toBeNull(); // a number, not a predicate
    expect(tier.stats.truth_tables).toBe(0);
  });
});
