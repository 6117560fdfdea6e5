import { describe, expect, it } from 'vitest';
import { round12 } from '../../math/wilson.js';
import { analyzeText } from '../../text/analyze.js';
import type { AuditRow } from './rows.js';
import {
  DF_CAP,
  JACCARD_WEIGHT,
  MAX_SIMILARITY_MATCHES,
  OVERLAP_WEIGHT,
  MIN_SHARED_TERMS,
  SimilarityTier,
  exactSimilarityScore,
  similarityScore,
  type SimilarityHit,
} from './similarity.js';
import { compareRationals, decimalValue } from '../../math/exact.js';
import { lcg } from '../../math/lcg.testing.js';

function rows(texts: string[]): AuditRow[] {
  return texts.map((t, index) => ({
    index,
    id: undefined,
    contentField: 'prompt',
    content: t,
    text: analyzeText(t),
  }));
}

/** A seeded linear congruential generator: the same texts on every run. */

function bruteForce(exam: string[], exposure: string[], threshold: number): SimilarityHit[][] {
  const ex = exposure.map((t) => new Set(analyzeText(t).terms));
  return exam.map((t) => {
    const a = new Set(analyzeText(t).terms);
    const hits: SimilarityHit[] = [];
    ex.forEach((b, e) => {
      let shared = 0;
      for (const x of a) if (b.has(x)) shared++;
      if (shared < MIN_SHARED_TERMS) return;
      const score = round12(similarityScore(shared, a.size, b.size));
      if (score >= threshold) hits.push({ exposure_index: e, score, shared_terms: shared });
    });
    hits.sort((x, y) => y.score - x.score || x.exposure_index - y.exposure_index);
    return hits.slice(0, MAX_SIMILARITY_MATCHES);
  });
}

describe('similarityScore', () => {
  it('is 0.6 Jaccard + 0.4 overlap coefficient', () => {
    // |A| = 4, |B| = 6, 3 shared: J = 3/7, overlap = 3/4.
    expect(similarityScore(3, 4, 6)).toBeCloseTo(0.6 * (3 / 7) + 0.4 * (3 / 4), 15);
    expect(similarityScore(5, 5, 5)).toBe(1);
    expect(similarityScore(0, 5, 5)).toBe(0);
  });
});

describe('SimilarityTier', () => {
  it('finds exactly what all-pairs finds when no term is too common (random texts, several thresholds)', () => {
    const rnd = lcg(42);
    const vocab = Array.from({ length: 300 }, (_, i) => `w${i}`);
    const text = (): string =>
      Array.from({ length: 6 + Math.floor(rnd() * 12) }, () => vocab[Math.floor(rnd() * 80)]!).join(' ');
    const exposure = Array.from({ length: 60 }, text);
    // Half the exam are perturbed copies of exposure rows, so there are real matches.
    const exam = Array.from({ length: 60 }, (_, i) => {
      if (i % 2 === 1) return text();
      const words = exposure[i]!.split(' ');
      words[Math.floor(rnd() * words.length)] = vocab[100 + i]!;
      return words.join(' ');
    });
    for (const threshold of [0.5, 0.6, 0.8, 1]) {
      const tier = new SimilarityTier(rows(exposure), threshold);
      const got = rows(exam).map((r) => tier.match(r.text!.terms));
      expect(got).toEqual(bruteForce(exam, exposure, threshold));
      if (threshold < 1) expect(got.filter((h) => h.length > 0).length).toBeGreaterThan(20);
    }
  });

  it('does not index terms above the document-frequency cap, so they alone never make a candidate', () => {
    // DF_CAP + 1 rows share the three words "common shared words"; each also has a unique word.
    const exposure = Array.from({ length: DF_CAP + 1 }, (_, i) => `common shared words unique${i}`);
    const tier = new SimilarityTier(rows(exposure), 0.5);
    expect(tier.stats.unindexed_terms).toBe(3);
    expect(tier.match(analyzeText('common shared words elsewhere').terms)).toEqual([]);
    expect(tier.stats.candidate_pairs).toBe(0);
    // One shared indexed term brings the row in, and the common terms then count in its score.
    const hits = tier.match(analyzeText('common shared words unique7').terms);
    expect(hits[0]).toEqual({ exposure_index: 7, score: 1, shared_terms: 4 });
    expect(tier.stats.candidate_pairs).toBe(1);
  });

  it('bounds the candidates of one exam row by its terms x DF_CAP', () => {
    const exposure = Array.from(
      { length: 500 },
      (_, i) => `topic${i % 50} subject${i % 7} matter${i % 11} item${i}`,
    );
    const tier = new SimilarityTier(rows(exposure), 0.6);
    const terms = analyzeText('topic3 subject3 matter3 novel').terms;
    tier.match(terms);
    expect(tier.stats.candidate_pairs).toBeLessThanOrEqual(terms.length * DF_CAP);
  });
});

describe('the similarity threshold is compared on the exact score', () => {
  const words = (n: number, from = 0): string =>
    Array.from({ length: n }, (_, i) => `term${String.fromCharCode(97 + from + i)}x`).join(' ');
  const scores = (exam: string, exposure: string, threshold: number): number[] =>
    new SimilarityTier(rows([exposure]), threshold).match(analyzeText(exam).terms).map((h) => h.score);

  // 3 shared terms, 3 and b terms: (27 + 6 b) / (15 b) = 0.58, 0.6 and 0.625 for b = 10, 9, 8.
  it.each([
    [10, 0.58, false],
    [9, 0.6, true],
    [8, 0.625, true],
  ])('3 of 3 terms shared with a row of %i terms scores %s: a match at 0.6: %s', (b, score, match) => {
    const exposure = `${words(3)} ${words(b - 3, 10)}`;
    expect(compareRationals(exactSimilarityScore(3, 3, b), decimalValue(score))).toBe(0);
    expect(scores(words(3), exposure, 0.6)).toEqual(match ? [score] : []);
  });

  // 3 shared of 4 and 6 terms: 39/70 lies between the two thresholds, and 12 digits would round both alike.
  it.each([
    [0.5571428571428571, true],
    [0.5571428571428572, false],
  ])('39/70 against threshold %s: a match: %s', (threshold, match) => {
    const exam = `${words(3)} ${words(1, 10)}`;
    const exposure = `${words(3)} ${words(3, 15)}`;
    expect(scores(exam, exposure, threshold)).toEqual(match ? [0.557142857143] : []);
  });

  // 3 of 3 terms shared with a row of 11: 93/165, whose 12 digits (0.563636363636) fall below a 13-digit threshold.
  it.each([
    [0.563636363636, 0.563636363636],
    [0.5636363636363, 0.5636363636363636],
    [0.5636363636363636, 0.5636363636363636],
  ])('93/165 against threshold %s is shown as %s, never below it', (threshold, shown) => {
    const exposure = `${words(3)} ${words(8, 10)}`;
    expect(compareRationals(exactSimilarityScore(3, 3, 11), { num: 93n, den: 165n })).toBe(0);
    const [score] = scores(words(3), exposure, threshold);
    expect(score).toBe(shown);
    expect(score).toBeGreaterThanOrEqual(threshold);
  });

  it('derives the double weights from the exact ones', () => {
    expect([JACCARD_WEIGHT, OVERLAP_WEIGHT]).toEqual([0.6, 0.4]);
    // 3 shared of 4 and 6 terms: 3/5 * 3/7 + 2/5 * 3/4 = 39/70.
    expect(compareRationals(exactSimilarityScore(3, 4, 6), { num: 39n, den: 70n })).toBe(0);
  });
});
