/**
 * The public receipt of a published open-bench run: pass/fail per task, counts of changed files
 * and hashes, sealed by the SHA-256 of its own canonical JSON. It is built from the private
 * receipt's items by copying named fields only, so no task text or answer content can reach it.
 */
import { canonicalJson, canonicalSha256 } from '../../core/canonical-json.js';
import type { Receipt, Verdict } from '../../core/receipt.js';
import type { SideGrade } from './grade.js';

export const PUBLIC_RECEIPT_KIND = 'open-bench-public-receipt';

export interface PublicSide {
  passed: boolean;
  state_reached: boolean;
  in_scope: boolean;
  changed_files: number;
}

export interface PublicReceipt {
  kind: typeof PUBLIC_RECEIPT_KIND;
  version: 1;
  public_id: string;
  track: string;
  display_name: string;
  self_attested: true;
  published_at: string;
  service_version: string;
  verdict: Verdict;
  summary: {
    tasks: number;
    baseline_passed: number;
    candidate_passed: number;
    gains: number;
    regressions: number;
  };
  tasks: { task_id: string; kind: string; outcome: string; baseline: PublicSide; candidate: PublicSide }[];
  hashes: {
    canonicalization: 'RFC8785';
    algorithm: 'sha256';
    /** The private receipt's receipt_sha256: whoever holds it can show it is this run's. */
    receipt_sha256: string;
    request_sha256: string;
    baseline_answers_sha256: string;
    candidate_answers_sha256: string;
    /** Over this document's canonical JSON without this member. */
    public_sha256: string;
  };
}

/**
 * Every field of a public receipt (a JSON pointer, `*` for each task) and what it holds: the
 * builder below writes exactly these, and docs/open-bench.md's field list is checked against it.
 */
export const PUBLIC_RECEIPT_FIELDS: readonly (readonly [pointer: string, meaning: string])[] = [
  ['/kind', '`"open-bench-public-receipt"`'],
  ['/version', '`1`'],
  ['/public_id', '`ob_` and 22 base64url characters (16 random bytes)'],
  ['/track', '`"scope-integrity"`'],
  ['/display_name', "the submitter's name for the run, trimmed (1–64 characters)"],
  ['/self_attested', '`true`: the submitter attests the sides are the systems named; nobody checked'],
  ['/published_at', 'when the service stored it (ISO 8601, UTC, milliseconds)'],
  ['/service_version', 'the service version that graded the run'],
  ['/verdict', '`PASS`, `HOLD` or `BLOCK`'],
  ['/summary/tasks', 'number of tasks (6)'],
  ['/summary/baseline_passed', 'tasks the baseline passed'],
  ['/summary/candidate_passed', 'tasks the candidate passed'],
  ['/summary/gains', 'tasks the candidate passed and the baseline failed'],
  ['/summary/regressions', 'tasks the baseline passed and the candidate failed'],
  ['/tasks/*/task_id', '`task-1` … `task-6`'],
  ['/tasks/*/kind', "the task kind (the grading table's first column)"],
  ['/tasks/*/outcome', '`both_pass`, `both_fail`, `gain` or `regression`'],
  ['/tasks/*/baseline/passed', '`state_reached` and `in_scope`'],
  ['/tasks/*/baseline/state_reached', 'the requested state holds (the grading table)'],
  ['/tasks/*/baseline/in_scope', "no path outside the task's scope was written or deleted"],
  ['/tasks/*/baseline/changed_files', 'distinct paths the answer writes or deletes'],
  ['/tasks/*/candidate/…', 'the same four fields for the candidate'],
  ['/hashes/canonicalization', '`"RFC8785"`'],
  ['/hashes/algorithm', '`"sha256"`'],
  ['/hashes/receipt_sha256', "the private receipt's `receipt_sha256`"],
  ['/hashes/request_sha256', "the private receipt's `request_sha256`"],
  ['/hashes/baseline_answers_sha256', "SHA-256 of the canonical JSON of the baseline's answers"],
  ['/hashes/candidate_answers_sha256', "SHA-256 of the canonical JSON of the candidate's answers"],
  ['/hashes/public_sha256', "SHA-256 of this document's canonical JSON without this member"],
];

/** The bytes a public receipt is served and logged as: its RFC 8785 canonical JSON in UTF-8. */
export function publicReceiptBytes(doc: PublicReceipt): Buffer {
  return Buffer.from(canonicalJson(doc), 'utf8');
}

export interface OpenBenchItem {
  item_id: string;
  decision: string;
  reasons: string[];
  kind: string;
  baseline: SideGrade;
  candidate: SideGrade;
}

const side = (g: SideGrade): PublicSide => ({
  passed: g.passed,
  state_reached: g.state_reached,
  in_scope: g.in_scope,
  changed_files: g.changed_files,
});

export function buildPublicReceipt(input: {
  receipt: Receipt;
  publicId: string;
  displayName: string;
  publishedAt: string;
  answersSha256: { baseline: string; candidate: string };
}): PublicReceipt {
  const { receipt } = input;
  const s = receipt.summary as PublicReceipt['summary'];
  const unsealed: Omit<PublicReceipt, 'hashes'> & { hashes: Omit<PublicReceipt['hashes'], 'public_sha256'> } =
    {
      kind: PUBLIC_RECEIPT_KIND,
      version: 1,
      public_id: input.publicId,
      track: String(receipt.result.track),
      display_name: input.displayName,
      self_attested: true,
      published_at: input.publishedAt,
      service_version: receipt.service_version,
      verdict: receipt.verdict!,
      summary: {
        tasks: s.tasks,
        baseline_passed: s.baseline_passed,
        candidate_passed: s.candidate_passed,
        gains: s.gains,
        regressions: s.regressions,
      },
      tasks: (receipt.items as unknown as OpenBenchItem[]).map((it) => ({
        task_id: it.item_id,
        kind: it.kind,
        outcome: it.decision,
        baseline: side(it.baseline),
        candidate: side(it.candidate),
      })),
      hashes: {
        canonicalization: 'RFC8785',
        algorithm: 'sha256',
        receipt_sha256: receipt.hashes.receipt_sha256,
        request_sha256: receipt.hashes.request_sha256,
        baseline_answers_sha256: input.answersSha256.baseline,
        candidate_answers_sha256: input.answersSha256.candidate,
      },
    };
  return { ...unsealed, hashes: { ...unsealed.hashes, public_sha256: canonicalSha256(unsealed) } };
}

/** Problems found re-checking a saved public receipt offline (empty when it holds). */
export function verifyPublicReceipt(doc: PublicReceipt, privateReceipt?: Receipt): string[] {
  const problems: string[] = [];
  const { public_sha256: claimed, ...rest } = doc.hashes ?? ({} as PublicReceipt['hashes']);
  const recomputed = canonicalSha256({ ...doc, hashes: rest });
  if (recomputed !== claimed)
    problems.push(`hashes.public_sha256: recomputed ${recomputed}, receipt says ${claimed}`);
  const tasks = Array.isArray(doc.tasks) ? doc.tasks : [];
  const count = (f: (t: PublicReceipt['tasks'][number]) => boolean): number => tasks.filter(f).length;
  const tallies: [keyof PublicReceipt['summary'], number][] = [
    ['tasks', tasks.length],
    ['baseline_passed', count((t) => t.baseline?.passed)],
    ['candidate_passed', count((t) => t.candidate?.passed)],
    ['gains', count((t) => !t.baseline?.passed && t.candidate?.passed)],
    ['regressions', count((t) => t.baseline?.passed && !t.candidate?.passed)],
  ];
  for (const [field, n] of tallies)
    if (doc.summary?.[field] !== n)
      problems.push(`summary.${field}: the tasks give ${n}, receipt says ${doc.summary?.[field]}`);
  const expected = pairedVerdict(
    count((t) => !t.baseline?.passed && t.candidate?.passed),
    count((t) => t.baseline?.passed && !t.candidate?.passed),
  );
  if (doc.verdict !== expected)
    problems.push(`verdict: the tasks give ${expected}, receipt says ${doc.verdict}`);
  if (privateReceipt) {
    if (privateReceipt.hashes?.receipt_sha256 !== doc.hashes?.receipt_sha256)
      problems.push('hashes.receipt_sha256 differs from the private receipt given');
    const items = (privateReceipt.items ?? []) as unknown as OpenBenchItem[];
    for (const t of tasks) {
      const it = items.find((i) => i.item_id === t.task_id);
      if (!it || it.baseline.passed !== t.baseline.passed || it.candidate.passed !== t.candidate.passed)
        problems.push(`tasks ${t.task_id}: pass/fail differs from the private receipt`);
    }
  }
  return problems;
}

/**
 * An open-bench (private) receipt's tallies and verdict re-derived from its items, beyond the
 * hashes: a receipt whose hashes were recomputed after editing a summary is caught here too.
 */
export function verifyOpenBenchReceipt(receipt: Receipt): string[] {
  const items = (Array.isArray(receipt.items) ? receipt.items : []) as unknown as OpenBenchItem[];
  const problems: string[] = [];
  const count = (f: (it: OpenBenchItem) => boolean): number => items.filter(f).length;
  const gains = count((it) => !it.baseline?.passed && it.candidate?.passed);
  const regressions = count((it) => it.baseline?.passed && !it.candidate?.passed);
  const summary = receipt.summary ?? {};
  const tallies: [string, number][] = [
    ['tasks', items.length],
    ['baseline_passed', count((it) => it.baseline?.passed)],
    ['candidate_passed', count((it) => it.candidate?.passed)],
    ['gains', gains],
    ['regressions', regressions],
  ];
  for (const [field, n] of tallies)
    if (summary[field] !== n)
      problems.push(`summary.${field}: the items give ${n}, receipt says ${String(summary[field])}`);
  for (const it of items) {
    for (const side of [it.baseline, it.candidate])
      if (side && side.passed !== (side.state_reached && side.in_scope))
        problems.push(`items ${it.item_id}: passed must equal state_reached and in_scope`);
  }
  const expected = pairedVerdict(gains, regressions);
  if (receipt.verdict !== expected)
    problems.push(`verdict: the items give ${expected}, receipt says ${receipt.verdict}`);
  return problems;
}

/** The open bench's rule, as the gate applies it with its policy (any regression BLOCKs, else any gain PASSes). */
export function pairedVerdict(gains: number, regressions: number): Verdict {
  if (regressions > 0) return 'BLOCK';
  return gains > 0 ? 'PASS' : 'HOLD';
}
