/** Ranking, greedy filling under a token budget, and Spearman's rank correlation. */

export interface Ranked {
  /** Index into the request's memories. */
  index: number;
  score: number;
  tokens: number;
}

/** Score descending, ties to the earlier memory; returns rank (1-based) per memory index. */
export function rankOrder(entries: readonly Ranked[]): { order: Ranked[]; rank: number[] } {
  const order = [...entries].sort((a, b) => b.score - a.score || a.index - b.index);
  const rank = new Array<number>(entries.length);
  order.forEach((e, i) => (rank[e.index] = i + 1));
  return { order, rank };
}

export type SkipReason = 'no_score' | 'empty' | 'over_budget';

export interface Fill {
  selected: number[];
  tokensUsed: number;
  /** Per memory index: why it was not selected (absent when selected). */
  skipped: Map<number, { reason: SkipReason; remaining: number }>;
}

/**
 * Walks the ranking and takes every memory that still fits; a memory too large for what is
 * left is skipped and the walk goes on, so a smaller, lower-ranked memory can use the room.
 * Memories scoring 0 are never taken: they carry no signal for this ranking.
 */
export function greedyFill(order: readonly Ranked[], budget: number): Fill {
  const selected: number[] = [];
  const skipped = new Map<number, { reason: SkipReason; remaining: number }>();
  let used = 0;
  for (const e of order) {
    const remaining = budget - used;
    if (!(e.score > 0)) skipped.set(e.index, { reason: 'no_score', remaining });
    else if (e.tokens === 0) skipped.set(e.index, { reason: 'empty', remaining });
    else if (e.tokens > remaining) skipped.set(e.index, { reason: 'over_budget', remaining });
    else {
      selected.push(e.index);
      used += e.tokens;
    }
  }
  return { selected, tokensUsed: used, skipped };
}

/** Fractional ranks (ties share their average rank), 1 = highest score. */
function fractionalRanks(scores: readonly number[]): number[] {
  const idx = scores.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
  return ranksFromOrder(idx.map((index) => ({ index, score: scores[index]! })));
}

/**
 * Fractional ranks from an order by score descending (any order within ties: tied scores
 * share their average rank), indexed by memory index.
 */
function ranksFromOrder(order: readonly Pick<Ranked, 'index' | 'score'>[]): number[] {
  const ranks = new Array<number>(order.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]!.score === order[i]!.score) j++;
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]!.index] = avg;
    i = j + 1;
  }
  return ranks;
}

/** Spearman's rho with tie correction (Pearson on fractional ranks); null when a side is constant. */
export function spearman(a: readonly number[], b: readonly number[]): number | null {
  if (a.length < 2) return null;
  return pearsonOfRanks(fractionalRanks(a), fractionalRanks(b));
}

/** spearman() of two scores given as rankOrder() orders of the same memories: no re-sorting. */
export function spearmanOfOrders(a: readonly Ranked[], b: readonly Ranked[]): number | null {
  if (a.length < 2) return null;
  return pearsonOfRanks(ranksFromOrder(a), ranksFromOrder(b));
}

function pearsonOfRanks(ra: readonly number[], rb: readonly number[]): number | null {
  const n = ra.length;
  const mean = (n + 1) / 2;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = ra[i]! - mean;
    const db = rb[i]! - mean;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  if (saa === 0 || sbb === 0) return null;
  return sab / Math.sqrt(saa * sbb);
}
