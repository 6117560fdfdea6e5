/**
 * The leakage tool: audits declared exposure against an exam in three evidence tiers and
 * exports the clean exam (eval-tools.md, leakage; docs/leakage.md).
 */
import type { DecisionStep, ItemDecision, ReceiptBody } from '../../../core/receipt.js';
import { auditLeakage, type ItemAudit, type LeakageAudit } from './audit.js';
import type { Match } from './matches.js';
import type { LeakageOptions, LeakageRequest } from './schema.js';
import {
  DF_CAP,
  JACCARD_WEIGHT,
  MAX_SIMILARITY_MATCHES,
  MIN_SHARED_TERMS,
  OVERLAP_WEIGHT,
} from './similarity.js';

/**
 * An exam item's entry, in exam order. A clean item is its decision and reasons alone; a
 * matched one adds its tier and matches, and `match_count` only when it matched more rows
 * than are listed.
 */
export function leakageItem(item: ItemAudit): ItemDecision {
  // Keys in canonical (sorted) order: the receipt's canonicaliser then need not copy each item.
  if (item.decision === 'clean') return { decision: 'clean', item_id: item.row.id!, reasons: item.reasons };
  return {
    decision: item.decision,
    item_id: item.row.id!,
    ...(item.match_count > item.matches.length ? { match_count: item.match_count } : {}),
    matches: item.tier === 'exact' ? item.matches : item.matches.map(tierImplied),
    reasons: item.reasons,
    tier: item.tier,
  };
}

/** Fingerprint and similarity matches: the tier names the evidence, and a fingerprint's score is always 1. */
function tierImplied(m: Match): Partial<Match> {
  return m.evidence[0] === 'fingerprint'
    ? { exposure_index: m.exposure_index, source: m.source }
    : { exposure_index: m.exposure_index, score: m.score, shared_terms: m.shared_terms, source: m.source };
}

export function leakageDecisionPath(audit: LeakageAudit, options: LeakageOptions): DecisionStep[] {
  const path: DecisionStep[] = [];
  const exact = audit.exact;
  path.push({
    rule: 'tier1_exact_identity',
    outcome: exact.quarantined > 0 ? 'fail' : 'pass',
    detail:
      `${exact.quarantined} exam item(s) quarantined: ${exact.identity_matches} identity match(es), ` +
      `${exact.content_hash_matches} normalised-content hash match(es)`,
  });
  const fp = audit.fingerprint;
  path.push(
    fp === null
      ? {
          rule: 'tier2_behavioral_fingerprint',
          outcome: 'skip',
          detail: 'enable_behavioral_fingerprint is false',
        }
      : {
          rule: 'tier2_behavioral_fingerprint',
          outcome: fp.quarantined > 0 ? 'fail' : 'pass',
          detail:
            `${fp.quarantined} exam item(s) quarantined; ${fp.expression_rows} row(s) parsed as DSL expressions, ` +
            `${fp.truth_tables} distinct truth table(s) over ${fp.graphs} graphs (1..${fp.max_n} vertices), ` +
            `${fp.constant_rows} constant and so not matched`,
        },
  );
  const sim = audit.similarity;
  path.push(
    sim === null
      ? { rule: 'tier3_text_similarity', outcome: 'skip', detail: 'enable_text_similarity is false' }
      : {
          rule: 'tier3_text_similarity',
          outcome: 'info',
          detail: `${sim.review} exam item(s) sent to review (score >= ${options.similarity_threshold}); review never quarantines`,
        },
  );
  return path;
}

export interface LeakageCounts {
  exam: number;
  exposure: number;
  quarantined: number;
  review: number;
  clean: number;
}

export function leakageCounts(audit: LeakageAudit): LeakageCounts {
  let quarantined = 0;
  let review = 0;
  for (const it of audit.items) {
    if (it.decision === 'quarantine') quarantined++;
    else if (it.decision === 'review') review++;
  }
  return {
    exam: audit.items.length,
    exposure: audit.exposureRows,
    quarantined,
    review,
    clean: audit.items.length - quarantined - review,
  };
}

/** Per-tier figures and the rules that produced them, for result.tiers. */
export function leakageTiers(audit: LeakageAudit, options: LeakageOptions): Record<string, unknown> {
  return {
    exact: {
      enabled: true,
      rule: 'same item_id/id, or same SHA-256 of the normalised content field -> quarantine',
      ...audit.exact,
    },
    fingerprint:
      audit.fingerprint === null
        ? { enabled: false }
        : {
            enabled: true,
            rule: 'same SHA-256 of the truth values on every labelled graph with 1..max_n vertices -> quarantine; constant truth tables are not matched',
            ...audit.fingerprint,
          },
    similarity:
      audit.similarity === null
        ? { enabled: false }
        : {
            enabled: true,
            rule:
              `score = ${JACCARD_WEIGHT} x Jaccard + ${OVERLAP_WEIGHT} x overlap coefficient of the term sets, ` +
              `>= ${MIN_SHARED_TERMS} shared terms, score >= threshold -> review (never quarantine); ` +
              `at most ${MAX_SIMILARITY_MATCHES} matches per item`,
            min_shared_terms: MIN_SHARED_TERMS,
            max_matches_per_item: MAX_SIMILARITY_MATCHES,
            document_frequency_cap: DF_CAP,
            ...audit.similarity,
            threshold: options.similarity_threshold,
          },
  };
}

export function runLeakage(request: LeakageRequest): ReceiptBody {
  const audit = auditLeakage(request);
  const counts = leakageCounts(audit);
  const items = audit.items.map(leakageItem);
  const cleanExam = audit.items
    .filter((it) => it.decision !== 'quarantine')
    .map((it) => request.exam[it.row.index]!);
  const status = counts.quarantined > 0 ? 'LEAKED' : counts.review > 0 ? 'REVIEW' : 'CLEAN';
  return {
    status,
    summary: {
      ...counts,
      clean_exam_rows: cleanExam.length,
      tiers_enabled: {
        exact: true,
        fingerprint: request.enable_behavioral_fingerprint,
        similarity: request.enable_text_similarity,
      },
    },
    decision_path: leakageDecisionPath(audit, request),
    items,
    result: {
      clean_exam: cleanExam,
      tiers: leakageTiers(audit, request),
      normalisation:
        'NFKC, lower case, dash variants to "-", prose punctuation (. , ; : ? ! quotes) dropped, words and symbols separated by one space; see docs/leakage.md',
    },
    next_action: nextAction(counts, cleanExam.length),
  };
}

function nextAction(c: LeakageCounts, clean: number): string {
  const review =
    c.review > 0
      ? ` Read the ${c.review} item(s) with decision review against their matches before trusting them.`
      : '';
  if (c.quarantined > 0)
    return `Evaluate on result.clean_exam (${clean} of ${c.exam} rows): ${c.quarantined} item(s) were exposed and are quarantined.${review}`;
  if (c.review > 0) return `No item is quarantined.${review}`;
  return `No exposure found: the whole exam (${c.exam} rows) is clean against the ${c.exposure} declared exposure row(s).`;
}
