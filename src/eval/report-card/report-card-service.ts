/**
 * The report card: the item bank built in the pool at start-up (warming until then),
 * one-shot sessions of six items, grading in the pool, results signed with Ed25519.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { SERVICE_VERSION } from '../../core/receipt.js';
import type { VerifierPool } from '../speed/pool.js';
import type { KeySet } from '../repositories/receipt-keys.js';
import type { SessionItem, SessionStore, StoredSession } from '../repositories/report-card-sessions.js';
import type { BankItem } from './bank.js';
import { MIN_RETENTION_PERCENT } from './bank.js';
import type { ItemGrade } from './grade.js';
import { HEURISTIC_INFO, HEURISTICS } from './heuristics.js';
import type { ReportCardSubmitRequest, StartRequest } from './schemas.js';
import { signResult, type Signature } from './signing.js';
import { EXHAUSTIVE_MAX_N, type UniverseData } from './universe.js';
import {
  noSuchSession,
  reportCardBankFailed,
  reportCardWarming,
  sessionExpired,
  sessionGraded,
  tooManySessions,
} from '../errors.js';

export const SESSION_TTL_MS = 15 * 60 * 1000;
const ITEMS_PER_HEURISTIC = 3;

export interface ReportCardDeps {
  pool: VerifierPool;
  store: SessionStore;
  keys: KeySet;
  maxSessionsPerClient: number;
  now: () => number;
}

export interface ReportCardResult {
  kind: 'report-card-result';
  result_version: 1;
  service_version: string;
  session_id: string;
  challenge?: string;
  graded_at: string;
  score: { passed: number; total: number; fraction: number };
  items: ItemGrade[];
}

type Built = { universe: UniverseData; bank: BankItem[] };

/**
 * One build per process: the bank is a pure function of the code, and apps sharing a process
 * (tests) need not rebuild it.
 */
let built: Promise<Built> | undefined;

export class ReportCardService {
  private bank: BankItem[] | undefined;
  private universe: UniverseData | undefined;
  private failure: string | undefined;

  constructor(private readonly deps: ReportCardDeps) {}

  /** Starts building the bank in the pool; resolves when it is built (or failed). */
  warm(): Promise<void> {
    built ??= this.deps.pool.runTask<{ kind: 'build' }, Built>('report-card', { kind: 'build' });
    const mine = built;
    return mine.then(
      ({ universe, bank }) => {
        this.universe = universe;
        this.bank = bank;
      },
      (err: unknown) => {
        if (built === mine) built = undefined;
        this.failure = (err as Error).message;
      },
    );
  }

  health(): { state: 'warming' | 'ready' | 'failed'; bank_size?: number; graphs?: number } {
    if (this.bank && this.universe)
      return { state: 'ready', bank_size: this.bank.length, graphs: this.universe.count };
    return { state: this.failure ? 'failed' : 'warming' };
  }

  private ready(): { bank: BankItem[]; universe: UniverseData } {
    if (this.bank && this.universe) return { bank: this.bank, universe: this.universe };
    throw this.failure ? reportCardBankFailed() : reportCardWarming();
  }

  async start(request: StartRequest, client: string): Promise<object> {
    const { bank } = this.ready();
    const now = this.deps.now();
    const items: SessionItem[] = [];
    for (const heuristic of HEURISTICS) {
      const pool = bank.filter((b) => b.heuristic === heuristic);
      for (let k = 0; k < ITEMS_PER_HEURISTIC && pool.length > 0; k++) {
        const [pick] = pool.splice(randomInt(pool.length), 1);
        items.push({
          item_id: `item-${items.length + 1}`,
          bank_id: pick!.bank_id,
          heuristic,
          class_predicate: pick!.class_predicate,
        });
      }
    }
    const session: StoredSession = {
      session_id: randomBytes(24).toString('base64url'),
      client,
      created_at: now,
      expires_at: now + SESSION_TTL_MS,
      ...(request.challenge !== undefined ? { challenge: request.challenge } : {}),
      items,
    };
    if (!(await this.deps.store.create(session, this.deps.maxSessionsPerClient, now))) {
      throw tooManySessions('report-card', this.deps.maxSessionsPerClient);
    }
    const byId = new Map(bank.map((b) => [b.bank_id, b]));
    return {
      session_id: session.session_id,
      expires_at: new Date(session.expires_at).toISOString(),
      ...(session.challenge !== undefined ? { challenge: session.challenge } : {}),
      items: items.map((it) => ({
        item_id: it.item_id,
        heuristic: it.heuristic,
        claim: HEURISTIC_INFO[it.heuristic].claim,
        class_predicate: it.class_predicate,
        conjecture: `On every graph satisfying (${it.class_predicate}), the claim holds. It is false.`,
        task: `Answer with a narrower predicate in the graph DSL (docs: /api/counterexample's expression): it must imply (${it.class_predicate}), make the claim true on every graph with at most ${EXHAUSTIVE_MAX_N} vertices and on a fixed set of hard 7-8-vertex graphs, and keep at least ${MIN_RETENTION_PERCENT}% of the class's graphs on which the claim already held.`,
        forbidden_features: HEURISTIC_INFO[it.heuristic].forbidden,
        class_graphs: byId.get(it.bank_id)?.class_graphs,
        failing_graphs: byId.get(it.bank_id)?.wrong_graphs,
      })),
      submit: {
        method: 'POST',
        path: '/api/report-card/submit',
        body: '{session_id, answers: {item_id: predicate}}',
      },
    };
  }

  async submit(
    request: ReportCardSubmitRequest,
  ): Promise<{ result: ReportCardResult; signature: Signature }> {
    const { universe } = this.ready();
    const claim = await this.deps.store.claim(request.session_id, this.deps.now());
    if (claim.state === 'open') return this.grade(claim.session, request.answers, universe);
    if (claim.state === 'unknown') throw noSuchSession('report-card');
    if (claim.state === 'graded') throw sessionGraded();
    throw sessionExpired();
  }

  private async grade(
    session: StoredSession,
    answers: Record<string, string>,
    universe: UniverseData,
  ): Promise<{ result: ReportCardResult; signature: Signature }> {
    const grades = await this.deps.pool.runTask<object, ItemGrade[]>('report-card', {
      kind: 'grade',
      universe,
      items: session.items.map(({ item_id, heuristic, class_predicate }) => ({
        item_id,
        heuristic,
        class_predicate,
      })),
      answers,
    });
    const passed = grades.filter((g) => g.passed).length;
    const result: ReportCardResult = {
      kind: 'report-card-result',
      result_version: 1,
      service_version: SERVICE_VERSION,
      session_id: session.session_id,
      ...(session.challenge !== undefined ? { challenge: session.challenge } : {}),
      graded_at: new Date(this.deps.now()).toISOString(),
      score: { passed, total: grades.length, fraction: Number((passed / grades.length).toFixed(4)) },
      items: grades,
    };
    return { result, signature: await signResult(this.deps.keys.active, result) };
  }

  keySet(): object {
    return { keys: this.deps.keys.published };
  }
}
