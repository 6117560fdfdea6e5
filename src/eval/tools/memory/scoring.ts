/**
 * The two scores of every memory, with their parts (docs/memory-ranking.md):
 *   salience  = confidence * 0.995^effective_age * (1 + ln(1 + use_count)) * kind_weight
 *   relevance = kind_boost * (w_terms * bm25 / max bm25 + w_entities * entity_score)
 *               * ((1 - prior_strength) + prior_strength * prior)
 */
import { round12 } from '../../math/wilson.js';
import { bm25 } from './bm25.js';
import {
  UNKNOWN_KIND_WEIGHT,
  kindBoost,
  kindWeight,
  normalizeKind,
  type ResolvedQuestionKind,
} from './kinds.js';
import type { MemoryRequest } from './schema.js';
import { contentTerms, entityIndex, entityKey, findEntities, tokenCost, words } from './text.js';

export const RECENCY_BASE = 0.995;
/** Credit for an objective entity the context already holds (1 for a new one). */
export const IN_CONTEXT_CREDIT = 0.25;
/** Longest entity, in words, looked for in free text. */
const MAX_ENTITY_WORDS = 8;

export interface SalienceParts {
  score: number;
  confidence: number;
  age: number;
  effective_age: number;
  recency: number;
  use_count: number;
  usage: number;
  kind: string;
  kind_weight: number;
  kind_known: boolean;
}

export interface RelevanceParts {
  score: number;
  bm25: number;
  bm25_normalized: number;
  matched_terms: string[];
  entities_matched: string[];
  entities_already_in_context: string[];
  entity_score: number;
  match: number;
  kind_boost: number;
  prior: number;
}

export interface ObjectiveAnalysis {
  terms: string[];
  /** Target entities (keys), sorted, and where each came from. */
  entities: string[];
  fromText: string[];
  fromList: string[];
  inContext: string[];
}

export interface Scored {
  tokens: number;
  salience: SalienceParts;
  relevance: RelevanceParts;
}

export function scoreMemories(
  request: MemoryRequest,
  qk: ResolvedQuestionKind,
): { scored: Scored[]; objective: ObjectiveAnalysis } {
  const { memories } = request;
  const context = new Set((request.context_entities ?? []).map(entityKey).filter(Boolean));
  const listed = new Set((request.objective_entities ?? []).map(entityKey).filter(Boolean));

  // Entities the objective's text names: any entity the request knows of (memory entity lists,
  // context, explicit objective entities) found in it as a whole word sequence.
  const vocabulary = new Set<string>([...context, ...listed]);
  const memoryEntities = memories.map((m) => new Set((m.entities ?? []).map(entityKey).filter(Boolean)));
  for (const set of memoryEntities) for (const e of set) vocabulary.add(e);
  const fromText = findEntities(words(request.objective), entityIndex(vocabulary, MAX_ENTITY_WORDS));
  const target = new Set([...listed, ...fromText]);
  const targetIndex = entityIndex(target, MAX_ENTITY_WORDS);

  const terms = contentTerms(request.objective);
  const contentWords = memories.map((m) => words(m.content));
  const bm = bm25(
    contentWords.map((ws) => contentTerms(ws)),
    terms,
  );
  const maxBm = bm.reduce((mx, s) => Math.max(mx, s.score), 0);

  const salience = memories.map((m): SalienceParts => {
    const kind = normalizeKind(m.kind);
    const tableWeight = kindWeight(kind);
    const known = tableWeight !== undefined;
    const effectiveAge = request.current_step === undefined ? m.age : Math.min(m.age, request.current_step);
    const recency = RECENCY_BASE ** effectiveAge;
    const usage = 1 + Math.log1p(m.use_count);
    const weight = tableWeight ?? UNKNOWN_KIND_WEIGHT;
    return {
      score: m.confidence * recency * usage * weight,
      confidence: m.confidence,
      age: m.age,
      effective_age: effectiveAge,
      recency: round12(recency),
      use_count: m.use_count,
      usage: round12(usage),
      kind,
      kind_weight: weight,
      kind_known: known,
    };
  });
  const maxSalience = salience.reduce((mx, s) => Math.max(mx, s.score), 0);

  const { shape } = qk;
  const scored = memories.map((m, i): Scored => {
    // Objective entities the memory names, in its entity list or in its text.
    const named = target.size > 0 ? findEntities(contentWords[i]!, targetIndex) : new Set<string>();
    for (const e of memoryEntities[i]!) if (target.has(e)) named.add(e);
    const matched = named.size > 0 ? [...named].sort() : [];
    const inContext: string[] = [];
    for (const e of matched) if (context.has(e)) inContext.push(e);
    const credit = matched.length - inContext.length + IN_CONTEXT_CREDIT * inContext.length;
    const entityScore = target.size > 0 ? credit / target.size : 0;
    const bmNorm = maxBm > 0 ? bm[i]!.score / maxBm : 0;
    const match = shape.terms * bmNorm + shape.entities * entityScore;
    const sal = salience[i]!;
    const prior = shape.prior === 'recency' ? sal.recency : maxSalience > 0 ? sal.score / maxSalience : 0;
    const boost = kindBoost(shape, sal.kind);
    const relevance = boost * match * (1 - shape.priorStrength + shape.priorStrength * prior);
    return {
      tokens: tokenCost(m.content),
      salience: { ...sal, score: round12(sal.score) },
      relevance: {
        score: round12(relevance),
        bm25: round12(bm[i]!.score),
        bm25_normalized: round12(bmNorm),
        matched_terms: bm[i]!.matchedTerms,
        entities_matched: matched,
        entities_already_in_context: inContext,
        entity_score: round12(entityScore),
        match: round12(match),
        kind_boost: boost,
        prior: round12(prior),
      },
    };
  });
  return {
    scored,
    objective: {
      terms: [...new Set(terms)],
      entities: [...target].sort(),
      fromText: [...fromText].sort(),
      fromList: [...listed].sort(),
      inContext: [...target].filter((e) => context.has(e)).sort(),
    },
  };
}
