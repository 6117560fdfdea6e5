/**
 * The leakage audit: reads the rows, runs the enabled tiers in evidence order and decides
 * each exam item. Shared by the leakage and inspect tools; pure.
 */
import { ExactTier } from './exact.js';
import { FingerprintTier, type Fingerprint, type FingerprintStats } from './fingerprint.js';
import { KeyIndex, type Match } from './matches.js';
import { readExam, readExposure, type AuditRow, type ExposureAuditRow } from './rows.js';
import type { LeakageOptions } from './schema.js';
import { SimilarityTier, type SimilarityStats } from './similarity.js';

/** At most this many matches are listed per item for tiers 1 and 2 (all are counted). */
export const MAX_LISTED_MATCHES = 10;

export type LeakageDecision = 'quarantine' | 'review' | 'clean';
export type LeakageTier = 'exact' | 'fingerprint' | 'similarity';

export interface ItemAudit {
  row: AuditRow;
  decision: LeakageDecision;
  /** The tier whose evidence decided the item; null when clean. */
  tier: LeakageTier | null;
  matches: Match[];
  /** All matches of the deciding tier (matches[] lists at most MAX_LISTED_MATCHES). */
  match_count: number;
  reasons: string[];
  fingerprint: Fingerprint | null;
}

export interface LeakageAudit {
  items: ItemAudit[];
  exposureRows: number;
  exact: { identity_matches: number; content_hash_matches: number; quarantined: number };
  fingerprint: (FingerprintStats & { quarantined: number }) | null;
  similarity: (SimilarityStats & { review: number; threshold: number }) | null;
}

/** The match itself (matches[]) names the source; the reason names the row. */
function describe(m: Match): string {
  return `exposure[${m.exposure_index}]`;
}

function listed(matches: Match[]): string {
  const shown = matches.slice(0, 3).map(describe).join(', ');
  return matches.length > 3 ? `${shown} and ${matches.length - 3} more` : shown;
}

export function auditLeakage(options: LeakageOptions): LeakageAudit {
  const exam = readExam(options.exam);
  const exposure = readExposure(options.exposure);
  const exact = new ExactTier(exposure);
  const items: ItemAudit[] = exam.map((row) => ({
    row,
    decision: 'clean',
    tier: null,
    matches: [],
    match_count: 0,
    reasons: [],
    fingerprint: null,
  }));

  // Tier 1: exact identity or normalised-content hash.
  const exactStats = { identity_matches: 0, content_hash_matches: 0, quarantined: 0 };
  for (const item of items) {
    const found = exact.matches(item.row);
    if (found.length === 0) continue;
    for (const m of found) {
      if (m.evidence.includes('identity')) exactStats.identity_matches++;
      if (m.evidence.includes('content_hash')) exactStats.content_hash_matches++;
    }
    exactStats.quarantined++;
    const byId = found.filter((m) => m.evidence.includes('identity'));
    const byHash = found.filter((m) => m.evidence.includes('content_hash'));
    Object.assign(item, {
      decision: 'quarantine',
      tier: 'exact',
      matches: found.slice(0, MAX_LISTED_MATCHES),
      match_count: found.length,
    });
    const both = byId.length === found.length && byHash.length === found.length;
    if (both) item.reasons.push(`same identity and normalised ${item.row.contentField!} as ${listed(found)}`);
    else {
      if (byId.length > 0) item.reasons.push(`same identity as ${listed(byId)}`);
      if (byHash.length > 0)
        item.reasons.push(`same normalised ${item.row.contentField!} as ${listed(byHash)}`);
    }
  }

  const fingerprint = options.enable_behavioral_fingerprint
    ? fingerprintTier(items, exposure, options)
    : null;
  const similarity = options.enable_text_similarity ? similarityTier(items, exposure, options) : null;
  return { items, exposureRows: exposure.length, exact: exactStats, fingerprint, similarity };
}

function fingerprintTier(
  items: ItemAudit[],
  exposure: readonly ExposureAuditRow[],
  options: LeakageOptions,
): FingerprintStats & { quarantined: number } {
  const tier = new FingerprintTier(options.fingerprint_max_n);
  const index = new KeyIndex();
  for (const r of exposure) {
    if (r.content === undefined) continue;
    const fp = tier.of(r.content);
    if (fp && fp.constant === null) index.add(fp.sha256, r.index);
  }
  let quarantined = 0;
  for (const item of items) {
    if (item.decision !== 'clean') continue;
    const fp = tier.of(item.row.content!);
    item.fingerprint = fp;
    if (!fp) {
      const why = tier.textOnlyReason(item.row.content!);
      if (why !== null)
        item.reasons.push(
          `${item.row.contentField!} parses as text only: ${why}, so the behavioural fingerprint (tier 2) does not apply`,
        );
      continue;
    }
    if (fp.constant !== null) {
      item.reasons.push(
        `expression \`${fp.canonical}\` is ${String(fp.constant)} on all ${tier.stats.graphs} graphs with 1..${options.fingerprint_max_n} vertices; ` +
          'a constant fingerprint cannot identify an item, so it is not matched',
      );
      continue;
    }
    const hits = index.get(fp.sha256);
    if (hits.length === 0) continue;
    const found: Match[] = hits.map((i) => ({
      evidence: ['fingerprint'],
      exposure_index: i,
      score: 1,
      source: exposure[i]!.source,
    }));
    quarantined++;
    item.decision = 'quarantine';
    item.tier = 'fingerprint';
    item.matches = found.slice(0, MAX_LISTED_MATCHES);
    item.match_count = found.length;
    item.reasons.push(
      `expression \`${fp.canonical}\` has the same truth values as ${listed(found)} on all ${tier.stats.graphs} labelled graphs with 1..${options.fingerprint_max_n} vertices`,
    );
  }
  return { ...tier.stats, quarantined };
}

function similarityTier(
  items: ItemAudit[],
  exposure: readonly ExposureAuditRow[],
  options: LeakageOptions,
): SimilarityStats & { review: number; threshold: number } {
  const tier = new SimilarityTier(exposure, options.similarity_threshold);
  let review = 0;
  for (const item of items) {
    if (item.decision !== 'clean') continue;
    const hits = tier.match(item.row.text!.terms);
    if (hits.length === 0) continue;
    review++;
    item.decision = 'review';
    item.tier = 'similarity';
    item.matches = hits.map((h) => ({
      evidence: ['text_similarity'],
      exposure_index: h.exposure_index,
      score: h.score,
      shared_terms: h.shared_terms,
      source: exposure[h.exposure_index]!.source,
    }));
    item.match_count = hits.length;
    const best = item.matches[0]!;
    item.reasons.push(
      // The decision already says "review"; the reason says only why (one per review item).
      `resembles ${listed(item.matches)}: score ${best.score} >= threshold ${options.similarity_threshold}`,
    );
  }
  return { ...tier.stats, review, threshold: options.similarity_threshold };
}
