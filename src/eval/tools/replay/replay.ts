/**
 * Replay console: an ordered event log -> checkpoints, rewinds, a branch tree, notes, the
 * final line, discarded steps and the final answer with its verdict (eval-tools.md, replay;
 * docs/replay.md). Problems in the log are findings in the receipt, never errors.
 */
import type { DecisionStep, ItemDecision, ReceiptBody } from '../../../core/receipt.js';
import type { Command } from './commands.js';
import type { ReplayRequest } from './schema.js';
import { eventId, replaySession, type Claim, type FindingCode, type Session } from './session.js';

/** Longest event text echoed per item; the request holds the full text. */
const ECHO_CHARS = 200;
/** Event ids listed per rewind; the count is always exact. */
const MAX_LISTED = 100;

export function runReplay(request: ReplayRequest): ReceiptBody {
  const s = replaySession(request.events);
  const kept = new Set(s.finalPath);
  const discarded = s.records.map((_, i) => i).filter((i) => !kept.has(i));
  const final = finalAnswer(s, kept);
  const status = !final
    ? 'NO_ANSWER'
    : !final.judged
      ? 'UNVERIFIED'
      : final.judged.verdict === 'ACCEPT'
        ? 'ACCEPTED'
        : 'REJECTED';
  const count = (...codes: FindingCode[]) => s.findings.filter((f) => codes.includes(f.code)).length;

  const items: ItemDecision[] = request.events.map((ev, i) => {
    const rec = s.records[i]!;
    const reasons = rec.findings.map((f) => f.message);
    if (!kept.has(i) && rec.discardedBy !== null)
      reasons.push(`discarded by the rewind at ${eventId(rec.discardedBy)}`);
    return {
      item_id: eventId(i),
      decision: kept.has(i) ? 'kept' : 'discarded',
      reasons,
      step: ev.step ?? null,
      kind: ev.kind,
      branch: rec.branch,
      command: describe(rec.command, rec.verdict?.verdict ?? null),
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
          : `the last verdict on the final answer (${eventId(final.claim.event)}) is ${final.judged.verdict} at ${eventId(final.judged.event)}`,
    },
  ];

  const branches = [...s.branches.values()].map((b) => ({
    id: b.id,
    parent: b.parent,
    checkpoint: b.checkpoint,
    fork_event: b.forkEvent === null ? null : eventId(b.forkEvent),
    opened_by: b.openedBy === null ? null : eventId(b.openedBy),
    note: b.note,
    events: b.events.length,
    first_event: b.events.length ? eventId(b.events[0]!) : null,
    last_event: b.events.length ? eventId(b.events[b.events.length - 1]!) : null,
    children: b.children,
    on_final_line: b.events.some((e) => kept.has(e)),
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
            accepted: status === 'ACCEPTED',
          }
        : null,
      claims: [...s.claims.values()].map((c) => claimView(c, kept)),
      checkpoints: s.checkpoints.map((c) => ({
        name: c.name,
        event: eventId(c.event),
        step: c.step,
        branch: c.branch,
        loads: c.loads,
        superseded_by: c.redefinedBy === null ? null : eventId(c.redefinedBy),
      })),
      rewinds: s.rewinds.map((r) => ({
        event: eventId(r.event),
        checkpoint: r.checkpoint,
        from_branch: r.fromBranch,
        to_branch: r.toBranch,
        note: r.note,
        discarded_count: r.discarded.length,
        discarded: r.discarded.slice(0, MAX_LISTED).map(eventId),
      })),
      branch_tree: { root: 'main', final_branch: finalBranch, branches },
      notes: [
        ...(request.notes ?? []).map((text, i) => ({
          source: 'request',
          ref: `notes/${i}`,
          branch: null,
          text,
        })),
        ...s.sketches.map((n) => ({
          source: 'sketch',
          ref: eventId(n.event),
          branch: s.records[n.event]!.branch,
          text: n.text,
        })),
        ...s.rewinds
          .filter((r) => r.note !== null)
          .map((r) => ({ source: 'rewind', ref: eventId(r.event), branch: r.toBranch, text: r.note })),
      ],
      timeline: s.finalPath.map(eventId),
      discarded: { count: discarded.length, events: discarded.map(eventId) },
      findings: s.findings.map((f) => ({ event: eventId(f.event), code: f.code, message: f.message })),
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

function finalAnswer(
  s: Session,
  kept: ReadonlySet<number>,
): { claim: Claim; judged: Claim['verdicts'][number] | null } | null {
  for (let k = s.finalPath.length - 1; k >= 0; k--) {
    const claim = s.claims.get(s.finalPath[k]!);
    if (claim?.type !== 'answer') continue;
    // Only verdicts recorded on the final line count.
    const judged = claim.verdicts.filter((v) => kept.has(v.event));
    return { claim, judged: judged[judged.length - 1] ?? null };
  }
  return null;
}

function claimView(c: Claim, kept: ReadonlySet<number>) {
  return {
    event: eventId(c.event),
    type: c.type,
    expression: echo(c.expression),
    canonical: c.parsed.ok ? c.parsed.canonical : null,
    parse_error: c.parsed.ok
      ? null
      : { column: c.parsed.column, message: c.parsed.message, expected: c.parsed.expected },
    kept: kept.has(c.event),
    verdicts: c.verdicts.map((v) => ({ event: eventId(v.event), verdict: v.verdict, reason: v.reason })),
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
