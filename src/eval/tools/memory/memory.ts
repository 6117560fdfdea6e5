/**
 * Memory relevance: query-free salience against objective-conditioned relevance, each filled
 * greedily under the token budget (eval-tools.md, memory; docs/memory-ranking.md).
 */
import type { DecisionStep, ItemDecision, ReceiptBody } from '../../../core/receipt.js';
import { round12 } from '../../math/wilson.js';
import { QUESTION_KINDS, resolveQuestionKind } from './kinds.js';
import type { MemoryRequest } from './schema.js';
import { RECENCY_BASE, scoreMemories, type Scored } from './scoring.js';
import { greedyFill, rankOrder, spearmanOfOrders, type Fill } from './selection.js';

const MAX_LISTED_TERMS = 100;

export function memoryId(index: number): string {
  return `m-${String(index + 1).padStart(4, '0')}`;
}

export function runMemory(request: MemoryRequest): ReceiptBody {
  const qk = resolveQuestionKind(request.question_kind);
  const { scored, objective } = scoreMemories(request, qk);
  const budget = request.token_budget;
  const sal = rankOrder(scored.map((s, index) => ({ index, score: s.salience.score, tokens: s.tokens })));
  const rel = rankOrder(scored.map((s, index) => ({ index, score: s.relevance.score, tokens: s.tokens })));
  const salFill = greedyFill(sal.order, budget);
  const relFill = greedyFill(rel.order, budget);
  const inSal = new Set(salFill.selected);
  const inRel = new Set(relFill.selected);
  const overlap = relFill.selected.filter((i) => inSal.has(i));
  const union = new Set([...inSal, ...inRel]).size;
  // The rankings already sort both scores; Spearman's ranks come from those orders.
  const rho = spearmanOfOrders(sal.order, rel.order);
  const move = (i: number) => ({
    item_id: memoryId(i),
    salience_rank: sal.rank[i]!,
    relevance_rank: rel.rank[i]!,
    tokens: scored[i]!.tokens,
  });
  const promoted = relFill.selected.filter((i) => !inSal.has(i)).map(move);
  const demoted = salFill.selected.filter((i) => !inRel.has(i)).map(move);
  const kinds = memoryKinds(scored);
  const unknownKinds = kinds.filter((k) => !k.known).map((k) => k.kind);

  const items: ItemDecision[] = scored.map((s, i) =>
    itemFor(s, i, sal.rank[i]!, rel.rank[i]!, inSal.has(i), inRel.has(i), salFill, relFill),
  );
  const relevant = relFill.selected.length > 0;
  const decisionPath: DecisionStep[] = [
    {
      rule: 'question_kind',
      outcome: qk.known ? 'pass' : 'info',
      detail: qk.known
        ? `"${qk.requested}" ranked as ${qk.applied}: ${qk.shape.description}`
        : `"${qk.requested}" is not a supported question kind (${Object.keys(QUESTION_KINDS).join(', ')}); ranked as generic`,
    },
    {
      rule: 'objective_entities',
      outcome: 'info',
      detail:
        objective.entities.length === 0
          ? 'no target entities: the objective names no known entity and objective_entities is empty; relevance rests on terms alone'
          : `${objective.entities.length} target entit${objective.entities.length === 1 ? 'y' : 'ies'} ` +
            `(${objective.fromText.length} named in the objective, ${objective.fromList.length} listed), ${objective.inContext.length} already in context`,
    },
    {
      rule: 'memory_kinds',
      outcome: unknownKinds.length ? 'info' : 'pass',
      detail: unknownKinds.length
        ? `kind(s) ${unknownKinds.map((k) => `"${k}"`).join(', ')} not in the weight table; weighted as unknown`
        : 'every memory kind has a weight',
    },
    {
      rule: 'salience_fill',
      outcome: 'pass',
      detail: `${salFill.selected.length} memories, ${salFill.tokensUsed}/${budget} tokens`,
    },
    {
      rule: 'relevance_fill',
      outcome: relevant ? 'pass' : 'fail',
      detail: relevant
        ? `${relFill.selected.length} memories, ${relFill.tokensUsed}/${budget} tokens`
        : 'no memory shares a term or an entity with the objective',
    },
  ];

  return {
    status: relevant ? 'SELECTED' : 'NO_RELEVANT_MEMORY',
    summary: {
      memories: scored.length,
      token_budget: budget,
      question_kind: qk.applied,
      salience_selected: salFill.selected.length,
      salience_tokens: salFill.tokensUsed,
      relevance_selected: relFill.selected.length,
      relevance_tokens: relFill.tokensUsed,
      overlap: overlap.length,
      promoted: promoted.length,
      demoted: demoted.length,
      spearman_rho: rho === null ? null : round12(rho),
    },
    decision_path: decisionPath,
    items,
    result: {
      salience: {
        selected: salFill.selected.map(memoryId),
        tokens_used: salFill.tokensUsed,
        token_budget: budget,
      },
      relevance: {
        selected: relFill.selected.map(memoryId),
        tokens_used: relFill.tokensUsed,
        token_budget: budget,
      },
      overlap: {
        selected_by_both: overlap.map(memoryId),
        count: overlap.length,
        jaccard: union === 0 ? null : round12(overlap.length / union),
      },
      rank_correlation: {
        method: 'spearman_rho_tie_corrected',
        over: 'all memories, salience score vs relevance score',
        n: scored.length,
        value: rho === null ? null : round12(rho),
      },
      promoted,
      demoted,
      objective: {
        // A long objective can hold thousands of terms; the receipt lists the first 100.
        terms: objective.terms.slice(0, MAX_LISTED_TERMS),
        terms_count: objective.terms.length,
        entities: objective.entities,
        entities_named_in_objective: objective.fromText,
        entities_listed: objective.fromList,
        entities_already_in_context: objective.inContext,
      },
      kinds,
      question_kind: {
        requested: qk.requested,
        applied: qk.applied,
        known: qk.known,
        weights: {
          terms: qk.shape.terms,
          entities: qk.shape.entities,
          prior: qk.shape.prior,
          prior_strength: qk.shape.priorStrength,
          kind_boost: qk.shape.kindBoost,
        },
      },
    },
    next_action: relevant
      ? `Load the relevance selection (${relFill.selected.length} memories, ${relFill.tokensUsed} tokens) into context` +
        (promoted.length
          ? `; it brings in ${promoted.length} memories salience alone would have missed.`
          : '.')
      : 'No memory matches the objective: name its entities in objective_entities or rephrase the objective with the memories’ vocabulary.',
  };
}

function itemFor(
  s: Scored,
  i: number,
  salRank: number,
  relRank: number,
  bySal: boolean,
  byRel: boolean,
  salFill: Fill,
  relFill: Fill,
): ItemDecision {
  const decision = bySal && byRel ? 'both' : byRel ? 'relevance_only' : bySal ? 'salience_only' : 'neither';
  const reasons = [
    bySal
      ? `selected by salience (rank ${salRank})`
      : `not selected by salience: ${why(salFill, i, s, 'salience')}`,
    byRel
      ? `selected by relevance (rank ${relRank})`
      : `not selected by relevance: ${why(relFill, i, s, 'relevance')}`,
  ];
  // Score parts a client cannot read off its own request; keys in sorted order, so the
  // receipt's canonical JSON needs no re-ordered copies.
  const sal = s.salience;
  const rel = s.relevance;
  return {
    decision,
    item_id: memoryId(i),
    reasons,
    relevance: {
      bm25: rel.bm25,
      entities_matched: rel.entities_matched,
      entity_score: rel.entity_score,
      match: rel.match,
      matched_terms: rel.matched_terms,
      prior: rel.prior,
      rank: relRank,
      score: rel.score,
    },
    salience: {
      kind: sal.kind,
      rank: salRank,
      recency: sal.recency,
      score: sal.score,
      usage: sal.usage,
    },
    tokens: s.tokens,
  };
}

/** Each memory kind once, sorted: its salience weight, whether the table knows it, its relevance boost. */
function memoryKinds(
  scored: readonly Scored[],
): { boost: number; kind: string; known: boolean; weight: number }[] {
  const byKind = new Map<string, { boost: number; kind: string; known: boolean; weight: number }>();
  for (const s of scored) {
    const kind = s.salience.kind;
    if (!byKind.has(kind))
      byKind.set(kind, {
        boost: s.relevance.kind_boost,
        kind,
        known: s.salience.kind_known,
        weight: s.salience.kind_weight,
      });
  }
  return [...byKind.values()].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

function why(fill: Fill, i: number, s: Scored, ranking: string): string {
  const skip = fill.skipped.get(i);
  switch (skip?.reason) {
    case 'no_score':
      return ranking === 'relevance'
        ? 'no term or entity overlap with the objective'
        : s.salience.confidence === 0
          ? 'salience is 0 (confidence 0)'
          : RECENCY_BASE ** s.salience.effective_age === 0
            ? `salience is below the smallest double (${RECENCY_BASE}^${s.salience.effective_age} underflows; current_step caps the age)`
            : `salience is below the smallest double (the product confidence ${s.salience.confidence} × ${RECENCY_BASE}^${s.salience.effective_age} × usage × kind weight underflows)`;
    case 'empty':
      return 'content has no words';
    case 'over_budget':
      return `needs ${s.tokens} tokens, ${skip.remaining} left`;
    case undefined:
      return 'not ranked';
  }
}
