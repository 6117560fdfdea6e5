/**
 * Replay console: an ordered event log -> checkpoints, rewinds, a branch tree, notes, the
 * final line, discarded steps and the final answer with its verdict (eval-tools.md, replay;
 * docs/replay.md). Problems in the log are findings in the receipt, never errors.
 */
import type { DecisionStep, ItemDecision, ReceiptBody } from '../../../core/receipt.js';
import type { Command } from './commands.js';
import type { ReplayRequest } from './schema.js';
import {
  eventId,
  replaySession,
  type Claim,
  type FindingCode,
  type Judged,
  type Session,
} from './session.js';

/** Longest event text echoed per item; the request holds the full text. */
const ECHO_CHARS = 200;

export function runReplay(request: ReplayRequest): ReceiptBody {
  const s = replaySession(request.events);
  const kept = onFinalLine(s);
  const discarded: number[] = [];
  for (let i = 0; i < kept.length; i++) if (!kept[i]) discarded.push(i);
  const final = finalAnswer(s, kept);
  const status = !final
    ? 'NO_ANSWER'
    : !final.judged
      ? 'UNVERIFIED'
      : final.judged.verdict === 'ACCEPT'
        ? 'ACCEPTED'
        : 'REJECTED';
  const count = (...codes: FindingCode[]) => s.findings.filter((f) => codes.includes(f.code)).length;

  // One reason text per rewind, shared by every event it discarded.
  const discardedReason = new Map<number, string>();
  const items: ItemDecision[] = request.events.map((_ev, i) => {
    const rec = s.records[i]!;
    const reasons: string[] = [];
    for (const f of rec.findings) reasons.push(f.message);
    const onLine = kept[i] === 1;
    if (!onLine && rec.discardedBy !== null) {
      let reason = discardedReason.get(rec.discardedBy);
      if (reason === undefined) {
        reason = `discarded by the rewind at ${eventId(rec.discardedBy)}`;
        discardedReason.set(rec.discardedBy, reason);
      }
      reasons.push(reason);
    }
    // Keys in sorted order here and below: canonical JSON then needs no re-ordered copies.
    return {
      branch: rec.branch,
      command: describe(rec.command, rec.verdict?.verdict ?? null),
      decision: onLine ? 'kept' : 'discarded',
      item_id: eventId(i),
      reasons,
    };
  });

  const decisionPath: DecisionStep[] = [
    rule('steps_increase', count('non_increasing_step'), 'event(s) whose step does not increase'),
    rule(
      'verbs_known',
      count('unknown_verb', 'missing_argument'),
      'control event(s) with an unknown verb or a missing argument',
    ),
    rule('checkpoints_resolve', count('unknown_checkpoint'), 'LOAD(s) of an unknown checkpoint'),
    rule(
      'expressions_parse',
      count('expression_parse_error'),
      'CHECK/ANSWER expression(s) that do not parse',
    ),
    rule(
      'verdicts_well_formed',
      count('unrecognised_verdict', 'verdict_without_subject'),
      'verifier event(s) that judge nothing or are not ACCEPT/REJECT',
    ),
    {
      rule: 'final_answer_accepted',
      outcome: status === 'ACCEPTED' ? 'pass' : status === 'REJECTED' ? 'fail' : 'info',
      detail: !final
        ? 'no ANSWER on the final line'
        : !final.judged
          ? `the final answer (${eventId(final.claim.event)}) has no verifier verdict`
          : `the last verdict on the final answer (${eventId(final.claim.event)}) is ${final.judged.verdict} at ${eventId(final.judged.event)}${final.judgedClaim && final.judgedClaim !== final.claim ? `, on the ${final.judgedClaim.type.toUpperCase()} of the same expression at ${eventId(final.judgedClaim.event)}` : ''}`,
    },
  ];

  const branches = [...s.branches.values()].map((b) => ({
    checkpoint: b.checkpoint,
    children: b.children,
    events: b.events.length,
    first_event: b.events.length ? eventId(b.events[0]!) : null,
    fork_event: b.forkEvent === null ? null : eventId(b.forkEvent),
    id: b.id,
    last_event: b.events.length ? eventId(b.events[b.events.length - 1]!) : null,
    note: b.note,
    on_final_line: b.events.some((e) => kept[e] === 1),
    opened_by: b.openedBy === null ? null : eventId(b.openedBy),
    parent: b.parent,
  }));
  const finalBranch = s.records[s.finalPath[s.finalPath.length - 1]!]!.branch;

  return {
    status,
    summary: {
      events: request.events.length,
      branches: s.branches.size,
      checkpoints: s.checkpoints.length,
      rewinds: s.rewinds.length,
      kept_events: s.finalPath.length,
      discarded_events: discarded.length,
      findings: s.findings.length,
      final_answer: final ? final.claim.expression : null,
      accepted: status === 'ACCEPTED',
    },
    decision_path: decisionPath,
    items,
    result: {
      final_answer: final
        ? {
            event: eventId(final.claim.event),
            expression: final.claim.expression,
            canonical: final.claim.parsed.ok ? final.claim.parsed.canonical : null,
            parses: final.claim.parsed.ok,
            verdict: final.judged?.verdict ?? null,
            reason: final.judged?.reason ?? null,
            verdict_event: final.judged ? eventId(final.judged.event) : null,
            judged_claim: final.judgedClaim ? eventId(final.judgedClaim.event) : null,
            verified_by: status === 'ACCEPTED' ? eventId(final.judged!.event) : null,
            accepted: status === 'ACCEPTED',
          }
        : null,
      claims: [...s.claims.values()].map((c) => claimView(c, kept)),
      checkpoints: s.checkpoints.map((c) => ({
        branch: c.branch,
        event: eventId(c.event),
        loads: c.loads,
        name: c.name,
        step: c.step,
        superseded_by: c.redefinedBy === null ? null : eventId(c.redefinedBy),
      })),
      rewinds: s.rewinds.map((r) => ({
        checkpoint: r.checkpoint,
        discarded_count: r.discardedCount,
        event: eventId(r.event),
        from_branch: r.fromBranch,
        note: r.note,
        to_branch: r.toBranch,
      })),
      branch_tree: { root: 'main', final_branch: finalBranch, branches },
      notes: [
        ...(request.notes ?? []).map((text, i) => ({
          branch: null,
          ref: `notes/${i}`,
          source: 'request',
          text,
        })),
        ...s.sketches.map((n) => ({
          branch: s.records[n.event]!.branch,
          ref: eventId(n.event),
          source: 'sketch',
          text: n.text,
        })),
        ...s.rewinds
          .filter((r) => r.note !== null)
          .map((r) => ({ branch: r.toBranch, ref: eventId(r.event), source: 'rewind', text: r.note })),
      ],
      timeline: s.finalPath.map(eventId),
      discarded: { count: discarded.length, events: discarded.map(eventId) },
      findings: s.findings.map((f) => ({ code: f.code, event: eventId(f.event), message: f.message })),
    },
    next_action: nextAction(status, s.findings.length),
  };
}

function rule(name: string, n: number, what: string): DecisionStep {
  return {
    rule: name,
    outcome: n === 0 ? 'pass' : 'fail',
    detail: n === 0 ? `0 ${what}` : `${n} ${what}; see result.findings`,
  };
}

/** 1 for every event on the final line, 0 for a discarded one. */
function onFinalLine(s: Session): Uint8Array {
  const kept = new Uint8Array(s.records.length);
  for (const e of s.finalPath) kept[e] = 1;
  return kept;
}

interface FinalAnswer {
  claim: Claim;
  /** The latest verdict on the final line on this answer or on a claim of the same canonical expression. */
  judged: Judged | null;
  /** The CHECK or ANSWER that verdict judged. */
  judgedClaim: Claim | null;
}

/**
 * The last ANSWER on the final line, judged by the latest verdict on the final line on any
 * claim of the same canonical expression there: `CHECK X`, `ACCEPT`, `ANSWER X` is verified.
 */
function finalAnswer(s: Session, kept: Uint8Array): FinalAnswer | null {
  for (let k = s.finalPath.length - 1; k >= 0; k--) {
    const claim = s.claims.get(s.finalPath[k]!);
    if (claim?.type !== 'answer') continue;
    const canonical = claim.parsed.ok ? claim.parsed.canonical : null;
    let judged: Judged | null = null;
    let judgedClaim: Claim | null = null;
    for (const c of s.claims.values()) {
      const same =
        c === claim ||
        (canonical !== null && c.parsed.ok && c.parsed.canonical === canonical && kept[c.event] === 1);
      if (!same) continue;
      // Only verdicts recorded on the final line count.
      for (const v of c.verdicts) {
        if (kept[v.event] === 1 && (judged === null || v.event > judged.event)) {
          judged = v;
          judgedClaim = c;
        }
      }
    }
    return { claim, judged, judgedClaim };
  }
  return null;
}

function claimView(c: Claim, kept: Uint8Array) {
  return {
    canonical: c.parsed.ok ? c.parsed.canonical : null,
    event: eventId(c.event),
    expression: echo(c.expression),
    kept: kept[c.event] === 1,
    parse_error: c.parsed.ok
      ? null
      : { column: c.parsed.column, expected: c.parsed.expected, message: c.parsed.message },
    type: c.type,
    verdicts: c.verdicts.map((v) => ({ event: eventId(v.event), reason: v.reason, verdict: v.verdict })),
  };
}

function describe(cmd: Command | null, verdict: string | null): string | null {
  if (verdict) return verdict;
  if (!cmd) return null;
  switch (cmd.type) {
    case 'save':
      return `SAVE ${cmd.name}`;
    case 'load':
      return `LOAD ${cmd.name}`;
    case 'check':
    case 'answer':
      return `${cmd.type.toUpperCase()} ${cmd.parsed.ok ? cmd.parsed.canonical : '(unparsed)'}`;
    case 'sketch':
      return 'SKETCH';
    case 'invalid':
      return cmd.verb ? `invalid ${cmd.verb.slice(0, 40)}` : 'invalid';
  }
}

function echo(text: string): string {
  return text.length <= ECHO_CHARS ? text : `${text.slice(0, ECHO_CHARS)}… (${text.length} characters)`;
}

function nextAction(status: string, findings: number): string {
  const fix = findings > 0 ? ` Review the ${findings} finding(s) in result.findings.` : '';
  switch (status) {
    case 'ACCEPTED':
      return `The final answer was accepted by the verifier.${fix}`;
    case 'REJECTED':
      return `The verifier rejected the final answer: rewind (LOAD) to a checkpoint and revise it.${fix}`;
    case 'UNVERIFIED':
      return `Send the final answer to the verifier: it has no ACCEPT or REJECT yet.${fix}`;
    default:
      return `No ANSWER on the final line: end the session with ANSWER <expression>.${fix}`;
  }
}
