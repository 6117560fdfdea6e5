/**
 * Tier 3, text similarity: review only, never quarantine (docs/leakage.md, "Tier 3").
 *
 * score(A, B) = 0.6 * |A n B| / |A u B| + 0.4 * |A n B| / min(|A|, |B|) over term sets, at
 * least 3 shared terms. Candidates come from an inverted index over the exposure rows' terms;
 * a term found in more than DF_CAP exposure rows is not indexed, so every posting list holds
 * at most DF_CAP rows and the work per exam row is bounded by (its terms x DF_CAP): linear in
 * the input, never all pairs. Unindexed terms still count in the score, and in the upper bound
 * used to skip candidates that cannot reach the threshold.
 *
 * Prefix filtering (as in set-similarity joins) cuts the candidates further without losing any:
 * a score of at least t needs Jaccard >= (t - 0.4) / 0.6, so at least o = ceil(that x |A|)
 * shared terms, of which at least o - (A's unindexed terms) are indexed. Probing only A's
 * rarest indexed terms, all but (that many - 1) of them, still reaches every such row.
 */
import { atLeast, compareRationals, decimalValue, ratio, type Rational } from '../../math/exact.js';
import { round12 } from '../../math/wilson.js';
import type { AuditRow } from './rows.js';

export const MIN_SHARED_TERMS = 3;
export const MAX_SIMILARITY_MATCHES = 3;
/** Posting-list cap: terms in more exposure rows than this are too common to find candidates with. */
export const DF_CAP = 64;
/** The weights as fractions, defined once: the exact score uses these, the double score their quotients. */
const JACCARD_WEIGHT_EXACT = ratio(3, 5);
const OVERLAP_WEIGHT_EXACT = ratio(2, 5);
const asDouble = (r: Rational): number => Number(r.num) / Number(r.den);
export const JACCARD_WEIGHT = asDouble(JACCARD_WEIGHT_EXACT);
export const OVERLAP_WEIGHT = asDouble(OVERLAP_WEIGHT_EXACT);
/** Far above float error in a score: the candidate filters err towards scoring a pair exactly. */
const SLACK = 1e-9;

/** The score as a double: what the receipt shows (rounded to 12 significant digits). */
export function similarityScore(shared: number, a: number, b: number): number {
  if (shared === 0) return 0;
  return JACCARD_WEIGHT * (shared / (a + b - shared)) + OVERLAP_WEIGHT * (shared / Math.min(a, b));
}

/** The score as a fraction, wj s / union + wo s / min: what the threshold is tested on. */
export function exactSimilarityScore(shared: number, a: number, b: number): Rational {
  if (shared === 0) return ratio(0);
  const union = BigInt(a + b - shared);
  const min = BigInt(Math.min(a, b));
  const s = BigInt(shared);
  const { num: jn, den: jd } = JACCARD_WEIGHT_EXACT;
  const { num: on, den: od } = OVERLAP_WEIGHT_EXACT;
  return ratio(jn * od * s * min + on * jd * s * union, jd * od * union * min);
}

export interface SimilarityHit {
  exposure_index: number;
  score: number;
  shared_terms: number;
}

export interface SimilarityStats {
  indexed_exposure_rows: number;
  vocabulary: number;
  /** Terms above the document-frequency cap, left out of the index. */
  unindexed_terms: number;
  /** Exposure rows reached through the index, summed over exam rows. */
  candidate_pairs: number;
  /** Candidates whose upper bound could reach the threshold, so their overlap was counted. */
  scored_pairs: number;
}

export class SimilarityTier {
  private readonly termIds = new Map<string, number>();
  private readonly rowTerms: Int32Array[];
  private readonly indexed: Uint8Array;
  private readonly postingStart: Int32Array;
  private readonly postings: Int32Array;
  private readonly df: Int32Array;
  private readonly counts: Int32Array;
  private readonly touched: Int32Array;
  private readonly stamp: Int32Array;
  /** The smallest Jaccard index a pair scoring at least the threshold can have. */
  private readonly minJaccard: number;
  /** The threshold as the decimal it prints as. */
  private readonly thresholdExact: Rational;
  private generation = 0;
  readonly stats: SimilarityStats;

  constructor(
    exposure: readonly AuditRow[],
    private readonly threshold: number,
  ) {
    const df: number[] = [];
    let indexedRows = 0;
    this.rowTerms = exposure.map((r) => {
      const terms = r.text?.terms ?? [];
      // Rows with fewer terms than the minimum overlap can never match.
      if (terms.length < MIN_SHARED_TERMS) return new Int32Array(0);
      indexedRows++;
      const ids = new Int32Array(terms.length);
      for (let k = 0; k < terms.length; k++) {
        const term = terms[k]!;
        let id = this.termIds.get(term);
        if (id === undefined) {
          id = df.length;
          this.termIds.set(term, id);
          df.push(0);
        }
        df[id]!++;
        ids[k] = id;
      }
      return ids;
    });

    const vocab = df.length;
    this.indexed = new Uint8Array(vocab);
    this.postingStart = new Int32Array(vocab + 1);
    let unindexed = 0;
    for (let t = 0; t < vocab; t++) {
      const keep = df[t]! <= DF_CAP;
      this.indexed[t] = keep ? 1 : 0;
      if (!keep) unindexed++;
      this.postingStart[t + 1] = this.postingStart[t]! + (keep ? df[t]! : 0);
    }
    this.postings = new Int32Array(this.postingStart[vocab]!);
    const fill = this.postingStart.slice(0, vocab);
    for (let e = 0; e < this.rowTerms.length; e++) {
      for (const t of this.rowTerms[e]!) if (this.indexed[t]) this.postings[fill[t]!++] = e;
    }
    this.df = Int32Array.from(df);
    this.counts = new Int32Array(exposure.length);
    this.touched = new Int32Array(exposure.length);
    this.stamp = new Int32Array(vocab);
    this.minJaccard = Math.max(0, (threshold - OVERLAP_WEIGHT) / JACCARD_WEIGHT);
    this.thresholdExact = decimalValue(threshold);
    this.stats = {
      indexed_exposure_rows: indexedRows,
      vocabulary: vocab,
      unindexed_terms: unindexed,
      candidate_pairs: 0,
      scored_pairs: 0,
    };
  }

  /** The best matches at or above the threshold: score descending, then exposure order; at most 3. */
  match(terms: readonly string[]): SimilarityHit[] {
    const a = terms.length;
    if (a < MIN_SHARED_TERMS) return [];
    const gen = ++this.generation;
    const probe: number[] = [];
    let common = 0;
    for (const term of terms) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      this.stamp[id] = gen;
      if (this.indexed[id]) probe.push(id);
      else common++;
    }
    const needed = Math.max(MIN_SHARED_TERMS, Math.ceil(this.minJaccard * a - SLACK));
    const neededIndexed = Math.max(1, needed - common);
    const prefix = probe.length - neededIndexed + 1;
    if (prefix <= 0) return [];
    // Rarest first (ties by id, so the order is deterministic).
    probe.sort((x, y) => this.df[x]! - this.df[y]! || x - y);
    const skipped = probe.length - prefix;

    let touched = 0;
    for (let k = 0; k < prefix; k++) {
      const t = probe[k]!;
      for (let p = this.postingStart[t]!, end = this.postingStart[t + 1]!; p < end; p++) {
        const e = this.postings[p]!;
        if (this.counts[e] === 0) this.touched[touched++] = e;
        this.counts[e]!++;
      }
    }
    this.stats.candidate_pairs += touched;

    const hits: { hit: SimilarityHit; exact: Rational }[] = [];
    for (let k = 0; k < touched; k++) {
      const e = this.touched[k]!;
      const viaPrefix = this.counts[e]!;
      this.counts[e] = 0;
      const row = this.rowTerms[e]!;
      const b = row.length;
      // Shared terms the prefix could not see are among the skipped and the unindexed ones.
      const upper = Math.min(viaPrefix + skipped + common, a, b);
      // The slack keeps pairs whose rounded score would just reach the threshold.
      if (upper < MIN_SHARED_TERMS || similarityScore(upper, a, b) < this.threshold - SLACK) continue;
      this.stats.scored_pairs++;
      let shared = 0;
      for (let q = 0; q < b; q++) if (this.stamp[row[q]!] === gen) shared++;
      if (shared < MIN_SHARED_TERMS) continue;
      // Decided on the fraction (0.6 means 3/5, a 16-digit threshold means itself); the double,
      // off by ~1e-16, settles every pair outside the slack band without BigInt work.
      const raw = similarityScore(shared, a, b);
      if (raw < this.threshold - SLACK) continue;
      const exact = exactSimilarityScore(shared, a, b);
      if (raw < this.threshold + SLACK && !atLeast(exact, this.thresholdExact)) continue;
      const score = raw < this.threshold + SLACK ? this.shownAtEdge(exact) : round12(raw);
      hits.push({ hit: { exposure_index: e, score, shared_terms: shared }, exact });
    }
    hits.sort((x, y) => compareRationals(y.exact, x.exact) || x.hit.exposure_index - y.hit.exposure_index);
    return hits.slice(0, MAX_SIMILARITY_MATCHES).map((h) => h.hit);
  }

  /**
   * A matching score near the threshold as shown: 12 digits unless that prints below the
   * threshold, else the nearest double (never below the threshold's own double, by monotone rounding).
   */
  private shownAtEdge(exact: Rational): number {
    const nearest = asDouble(exact);
    const rounded = round12(nearest);
    return rounded >= this.threshold ? rounded : nearest;
  }
}
