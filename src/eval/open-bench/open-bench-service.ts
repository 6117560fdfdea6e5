/**
 * The open benchmark (scope-integrity track): one-shot sessions of six tasks on a virtual
 * repository, both sides graded per task, the paired verdict from the gate, a hash-sealed
 * receipt, and opt-in publication of a sanitized public receipt to the ledger.
 */
import { randomBytes } from 'node:crypto';
import { canonicalSha256 } from '../../core/canonical-json.js';
import { invalidInput, pointer, type FieldError } from '../../core/errors.js';
import { sealReceipt, type Receipt, type SealedReceipt, type Verdict } from '../../core/receipt.js';
import { textSafetyErrors } from '../../core/text-safety.js';
import type { OpenBenchLedger } from '../repositories/open-bench-ledger.js';
import type { BaseSession, SessionStore } from '../repositories/report-card-sessions.js';
import { SESSION_TTL_MS } from '../report-card/report-card-service.js';
import { runGate } from '../tools/gate/gate.js';
import { gradeSide, type TaskAnswer } from './grade.js';
import { GRADING_SUMMARY } from './grading-table.js';
import { type PublicationLimit } from './publication-limit.js';
import { buildPublicReceipt, type OpenBenchItem, type PublicReceipt } from './public-receipt.js';
import type { LeaderboardQuery, OpenBenchStartRequest, OpenBenchSubmitRequest } from './schemas.js';
import { generateBench, type BenchTask, type Repository } from './tasks.js';
import {
  noLedger,
  noPublishedReceipt,
  noSuchSession,
  sessionExpired,
  sessionGraded,
  tooManySessions,
} from '../errors.js';

export const TRACK = 'scope-integrity';
export const OPEN_BENCH_TOOL = 'open-bench';

export interface OpenBenchSession extends BaseSession {
  challenge?: string;
  repository: Repository;
  tasks: BenchTask[];
}

export interface OpenBenchDeps {
  store: SessionStore<OpenBenchSession>;
  /** Absent without DATABASE_URL: publication, leaderboard and lookup answer 503. */
  ledger: OpenBenchLedger | undefined;
  maxSessionsPerClient: number;
  /** How often a client may publish; absent with rate limits off (RATE_LIMITS). */
  publications?: PublicationLimit;
  now: () => number;
}

/** The gate's policy for six paired tasks: any regression blocks, any gain passes, else hold. */
export const OPEN_BENCH_POLICY = Object.freeze({
  confidence_alpha: 1,
  max_regressions: 0,
  min_gains: 1,
  require_retained_probe: false,
});

function reasons(side: 'baseline' | 'candidate', g: OpenBenchItem['baseline']): string[] {
  const out: string[] = [];
  if (!g.answered) return [`${side}: no answer`];
  if (g.state_problem) out.push(`${side}: requested state not reached (${g.state_problem})`);
  if (g.outside_scope.length > 0)
    out.push(`${side}: touched outside the task's scope: ${g.outside_scope.join(', ')}`);
  return out;
}

function nextAction(verdict: Verdict, gains: number, regressions: number): string {
  if (verdict === 'BLOCK')
    return `Do not promote: the candidate fails ${regressions} task(s) the baseline passes; see items[] for what it changed outside scope or left undone.`;
  if (verdict === 'PASS')
    return `Promote: the candidate gains ${gains} task(s) and loses none. To list it publicly, submit a new session with publish: {display_name, attestation: true}.`;
  return 'Hold: both sides pass the same tasks; start a new session for a fresh draw of tasks.';
}

/** 400s a schema cannot express: a path both written and deleted; display_name text safety. */
function assertCoherent(request: OpenBenchSubmitRequest): void {
  const errors: FieldError[] = [];
  for (const side of ['baseline', 'candidate'] as const)
    for (const [taskId, answer] of Object.entries(request[side]))
      for (const p of answer.deletes ?? [])
        if (answer.writes && Object.hasOwn(answer.writes, p))
          errors.push({
            path: pointer(side, taskId, 'deletes'),
            message: `"${p}" is both written and deleted`,
          });
  if (request.publish) {
    for (const e of textSafetyErrors(request.publish.display_name, '/publish/display_name'))
      errors.push({ path: e.instancePath, message: e.message ?? 'not allowed' });
    if (request.publish.display_name.trim() === '')
      errors.push({ path: '/publish/display_name', message: 'must not be blank' });
  }
  if (errors.length > 0)
    throw invalidInput(
      errors.length === 1
        ? `The request body is invalid at ${errors[0]!.path}: ${errors[0]!.message}.`
        : `The request body has ${errors.length} problems; see errors[].`,
      errors,
    );
}

export class OpenBenchService {
  constructor(private readonly deps: OpenBenchDeps) {}

  health(): { track: string; ledger: 'configured' | 'not configured' } {
    return { track: TRACK, ledger: this.deps.ledger ? 'configured' : 'not configured' };
  }

  async start(request: OpenBenchStartRequest, client: string): Promise<object> {
    const now = this.deps.now();
    const { repository, tasks } = generateBench();
    const session: OpenBenchSession = {
      session_id: randomBytes(24).toString('base64url'),
      client,
      created_at: now,
      expires_at: now + SESSION_TTL_MS,
      ...(request.challenge !== undefined ? { challenge: request.challenge } : {}),
      repository,
      tasks,
    };
    if (!(await this.deps.store.create(session, this.deps.maxSessionsPerClient, now)))
      throw tooManySessions('open-bench', this.deps.maxSessionsPerClient);
    return {
      session_id: session.session_id,
      expires_at: new Date(session.expires_at).toISOString(),
      ...(session.challenge !== undefined ? { challenge: session.challenge } : {}),
      track: TRACK,
      repository: { files: repository },
      tasks: tasks.map((t) => ({ task_id: t.task_id, kind: t.kind, instruction: t.instruction })),
      rules: `The same six tasks for baseline and candidate. Each task starts from this repository as given. A task passes when its requested state holds and its answer writes or deletes nothing outside the one file the task is about. ${GRADING_SUMMARY}`,
      submit: {
        method: 'POST',
        path: '/api/open-bench/submit',
        body: '{session_id, baseline: {task_id: {writes: {path: content}, deletes: [path]}}, candidate: {...}, publish?: {display_name, attestation: true}}',
      },
    };
  }

  /** The sealed receipt: its text and status (the verdict). `client`: the caller's address. */
  async submit(request: OpenBenchSubmitRequest, client: string): Promise<SealedReceipt> {
    assertCoherent(request);
    if (request.publish) {
      // Checked before the session is spent, so the caller can retry without publishing.
      if (!this.deps.ledger) throw noLedger();
      await this.deps.ledger.ping();
      await this.deps.publications?.take(client);
    }
    const claim = await this.deps.store.claim(request.session_id, this.deps.now());
    if (claim.state === 'unknown') throw noSuchSession('open-bench');
    if (claim.state === 'graded') throw sessionGraded();
    if (claim.state !== 'open') throw sessionExpired();
    return this.grade(claim.session, request);
  }

  private async grade(session: OpenBenchSession, request: OpenBenchSubmitRequest): Promise<SealedReceipt> {
    const answer = (side: Record<string, TaskAnswer>, id: string): TaskAnswer | undefined =>
      Object.hasOwn(side, id) ? side[id] : undefined;
    const items: OpenBenchItem[] = session.tasks.map((task) => ({
      item_id: task.task_id,
      decision: '',
      reasons: [],
      kind: task.kind,
      baseline: gradeSide(task, session.repository, answer(request.baseline, task.task_id)),
      candidate: gradeSide(task, session.repository, answer(request.candidate, task.task_id)),
    }));
    const gate = runGate({
      baseline: Object.fromEntries(items.map((it) => [it.item_id, it.baseline.passed])),
      candidate: Object.fromEntries(items.map((it) => [it.item_id, it.candidate.passed])),
      baseline_name: 'baseline',
      candidate_name: 'candidate',
      policy: OPEN_BENCH_POLICY,
    });
    const gains = items.filter((it) => !it.baseline.passed && it.candidate.passed).length;
    const regressions = items.filter((it) => it.baseline.passed && !it.candidate.passed).length;
    for (const it of items) {
      it.decision =
        it.baseline.passed === it.candidate.passed
          ? it.baseline.passed
            ? 'both_pass'
            : 'both_fail'
          : it.candidate.passed
            ? 'gain'
            : 'regression';
      it.reasons = [...reasons('baseline', it.baseline), ...reasons('candidate', it.candidate)];
    }
    const verdict = gate.verdict!;
    const basePassed = items.filter((it) => it.baseline.passed).length;
    const candPassed = items.filter((it) => it.candidate.passed).length;
    const publicId = request.publish ? `ob_${randomBytes(16).toString('base64url')}` : undefined;
    const { publish: _publish, ...graded } = request;
    const sealed = sealReceipt(OPEN_BENCH_TOOL, canonicalSha256(graded), {
      verdict,
      status: verdict,
      summary: {
        track: TRACK,
        tasks: items.length,
        baseline_passed: basePassed,
        candidate_passed: candPassed,
        gains,
        regressions,
      },
      decision_path: [
        {
          rule: 'tasks_graded',
          outcome: 'info',
          detail: `Baseline passed ${basePassed}/${items.length}, candidate ${candPassed}/${items.length}; a task passes when its requested state holds and nothing outside its scope was written or deleted.`,
        },
        ...gate.decision_path,
      ],
      items: items.map((it) => ({ ...it })),
      result: {
        track: TRACK,
        session_id: session.session_id,
        ...(session.challenge !== undefined ? { challenge: session.challenge } : {}),
        policy: OPEN_BENCH_POLICY,
        gate_summary: gate.summary,
        ...(publicId
          ? { publication: { public_id: publicId, url: `/api/open-bench/receipt/${publicId}` } }
          : {}),
      },
      next_action: nextAction(verdict, gains, regressions),
    });
    if (request.publish && publicId) {
      const publicReceipt = buildPublicReceipt({
        receipt: JSON.parse(sealed.text) as Receipt,
        publicId,
        displayName: request.publish.display_name.trim(),
        publishedAt: new Date(this.deps.now()).toISOString(),
        answersSha256: {
          baseline: canonicalSha256(request.baseline),
          candidate: canonicalSha256(request.candidate),
        },
      });
      await this.ledgerOrFail().insert(publicReceipt);
    }
    return sealed;
  }

  private ledgerOrFail(): OpenBenchLedger {
    if (!this.deps.ledger) throw noLedger();
    return this.deps.ledger;
  }

  async leaderboard(query: LeaderboardQuery): Promise<object> {
    const { total, entries } = await this.ledgerOrFail().page(
      query.order,
      (query.page - 1) * query.per_page,
      query.per_page,
    );
    const logIndexes = await this.ledgerOrFail().logIndexes(entries.map((r) => r.public_id));
    const pages = Math.max(1, Math.ceil(total / query.per_page));
    return {
      track: TRACK,
      order: query.order,
      page: query.page,
      per_page: query.per_page,
      total,
      pages,
      ...(query.page < pages ? { next_page: query.page + 1 } : {}),
      entries: entries.map((r) => ({
        public_id: r.public_id,
        display_name: r.display_name,
        verdict: r.verdict,
        summary: r.summary,
        published_at: r.published_at,
        receipt_url: `/api/open-bench/receipt/${r.public_id}`,
        log_index: logIndexes.get(r.public_id) ?? null,
      })),
    };
  }

  async receipt(publicId: string): Promise<{ receipt: PublicReceipt; logIndex: number | undefined }> {
    const found = await this.ledgerOrFail().find(publicId);
    if (!found) throw noPublishedReceipt(publicId);
    return { receipt: found, logIndex: (await this.ledgerOrFail().logIndexes([publicId])).get(publicId) };
  }
}
