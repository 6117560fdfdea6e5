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
import { contentTerms, entityIndex, entityKey, findEntities, findEntityIds, termOf, words } from './text.js';
import { scanWords, WordTable } from './word-table.js';

export const RECENCY_BASE = 0.995;
/** Credit for an objective entity the context already holds (1 for a new one). */
export const IN_CONTEXT_CREDIT = 0.25;
/** Longest entity, in words, looked for in free text. */
const MAX_ENTITY_WORDS = 8;

// Keys of the two parts objects in sorted order: they go into the receipt's items as they are,
// so canonical JSON needs no re-ordered copies. `rank` is filled in by the ranking.
export interface SalienceParts {
  age: number;
  confidence: number;
  effective_age: number;
  kind: string;
  kind_known: boolean;
  kind_weight: number;
  rank: number;
  recency: number;
  score: number;
  usage: number;
  use_count: number;
}

export interface RelevanceParts {
  bm25: number;
  bm25_normalized: number;
  entities_already_in_context: string[];
  entities_matched: string[];
  entity_score: number;
  kind_boost: number;
  match: number;
  matched_terms: string[];
  prior: number;
  rank: number;
  score: number;
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
  const keyOf = memo(entityKey);
  const context = keySet(request.context_entities, keyOf);
  const listed = keySet(request.objective_entities, keyOf);

  // Entities the objective's text names: any entity the request knows of (memory entity lists,
  // context, explicit objective entities) found in it as a whole word sequence.
  const vocabulary = new Set<string>([...context, ...listed]);
  // Per memory its entity keys as listed (duplicates and empty keys are dropped where used).
  const memoryEntities = memories.map((m) => {
    const list = m.entities;
    if (!list || list.length === 0) return NO_KEYS;
    const keys = new Array<string>(list.length);
    for (let k = 0; k < list.length; k++) {
      const key = keyOf(list[k]!);
      keys[k] = key;
      if (key) vocabulary.add(key);
    }
    return keys;
  });
  const fromText = findEntities(words(request.objective), entityIndex(vocabulary, MAX_ENTITY_WORDS));
  const target = new Set([...listed, ...fromText]);
  const targetIndex = entityIndex(target, MAX_ENTITY_WORDS);

  // Each memory is tokenised once, into interned word ids that BM25 and entity search reuse.
  const terms = contentTerms(request.objective);
  const table = new WordTable();
  const scans = memories.map((m) => scanWords(m.content, table));
  const contentIds = scans.map((scan) => scan.ids);
  const bm = bm25(contentIds, table.words, termOf, terms);
  const firstOfTarget = new Uint8Array(table.words.length);
  for (let id = 0; id < table.words.length; id++)
    if (targetIndex.firstWords.has(table.words[id]!)) firstOfTarget[id] = 1;
  let maxBm = 0;
  for (const b of bm) maxBm = Math.max(maxBm, b.score);

  // Recency and usage depend on small integers and kinds repeat: each figure is computed and
  // rounded once per distinct value rather than once per memory.
  const recencyOf = memo((age: number) => RECENCY_BASE ** age);
  const recency12Of = memo((age: number) => round12(recencyOf(age)));
  const usageOf = memo((uses: number) => 1 + Math.log1p(uses));
  const usage12Of = memo((uses: number) => round12(usageOf(uses)));
  const kindOf = memo(normalizeKind);
  const { shape } = qk;
  const boostOf = memo((kind: string) => kindBoost(shape, kind));

  const n = memories.length;
  const rawSalience = new Float64Array(n);
  const salience = new Array<SalienceParts>(n);
  let maxSalience = 0;
  for (let i = 0; i < n; i++) {
    const m = memories[i]!;
    const kind = kindOf(m.kind);
    const tableWeight = kindWeight(kind);
    const effectiveAge = request.current_step === undefined ? m.age : Math.min(m.age, request.current_step);
    const weight = tableWeight ?? UNKNOWN_KIND_WEIGHT;
    const score = m.confidence * recencyOf(effectiveAge) * usageOf(m.use_count) * weight;
    rawSalience[i] = score;
    maxSalience = Math.max(maxSalience, score);
    salience[i] = {
      age: m.age,
      confidence: m.confidence,
      effective_age: effectiveAge,
      kind,
      kind_known: tableWeight !== undefined,
      kind_weight: weight,
      rank: 0,
      recency: recency12Of(effectiveAge),
      score: round12z(score),
      usage: usage12Of(m.use_count),
      use_count: m.use_count,
    };
  }

  const entityScoreOf = memo((credit: number) => (target.size > 0 ? credit / target.size : 0));
  const entityScore12Of = memo((credit: number) => round12z(entityScoreOf(credit)));
  const scored = new Array<Scored>(n);
  for (let i = 0; i < n; i++) {
    // Objective entities the memory names, in its entity list or in its text.
    let named =
      target.size > 0 ? findEntityIds(contentIds[i]!, table.words, firstOfTarget, targetIndex) : null;
    for (const e of memoryEntities[i]!) if (target.has(e)) (named ??= new Set<string>()).add(e);
    const matched = named ? [...named].sort() : [];
    const inContext: string[] = [];
    for (const e of matched) if (context.has(e)) inContext.push(e);
    const credit = matched.length - inContext.length + IN_CONTEXT_CREDIT * inContext.length;
    const entityScore = entityScoreOf(credit);
    const b = bm[i]!;
    const bmNorm = maxBm > 0 ? b.score / maxBm : 0;
    const match = shape.terms * bmNorm + shape.entities * entityScore;
    const sal = salience[i]!;
    const prior =
      shape.prior === 'recency' ? sal.recency : maxSalience > 0 ? rawSalience[i]! / maxSalience : 0;
    const boost = boostOf(sal.kind);
    const relevance = boost * match * (1 - shape.priorStrength + shape.priorStrength * prior);
    scored[i] = {
      tokens: scans[i]!.tokens,
      salience: sal,
      relevance: {
        bm25: round12z(b.score),
        bm25_normalized: round12z(bmNorm),
        entities_already_in_context: inContext,
        entities_matched: matched,
        entity_score: entityScore12Of(credit),
        kind_boost: boost,
        match: round12z(match),
        matched_terms: b.matchedTerms,
        prior: round12z(prior),
        rank: 0,
        score: round12z(relevance),
      },
    };
  }
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

const NO_KEYS: readonly string[] = [];

/** round12, skipping the string round trip for 0 (most memories score 0 on some part). */
function round12z(x: number): number {
  return x === 0 ? 0 : round12(x);
}

/** A per-request memo of a pure function of one primitive. */
function memo<K, V>(f: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined) {
      v = f(key);
      cache.set(key, v);
    }
    return v;
  };
}

function keySet(list: readonly string[] | undefined, keyOf: (entity: string) => string): Set<string> {
  const out = new Set<string>();
  if (list)
    for (const e of list) {
      const key = keyOf(e);
      if (key) out.add(key);
    }
  return out;
}
