/**
 * Replays an event log into a tree of events. Every event hangs under the previous event of
 * the line it was recorded on; `LOAD` hangs under the checkpoint's `SAVE` and opens a new
 * branch whose parent is the checkpoint's branch. The final line is the path from the root to
 * the last event; every event off it was discarded by a rewind.
 */
import { parseCommand, parseDsl, parseVerdict, type Command, type ParsedExpression } from './commands.js';
import type { EmulatorEvent } from './schema.js';

export type FindingCode =
  | 'unknown_checkpoint'
  | 'unknown_verb'
  | 'missing_argument'
  | 'non_increasing_step'
  | 'expression_parse_error'
  | 'checkpoint_redefined'
  | 'unrecognised_verdict'
  | 'verdict_without_subject'
  | 'reject_without_reason';

export interface Finding {
  event: number;
  code: FindingCode;
  message: string;
}

export interface Branch {
  id: string;
  parent: string | null;
  checkpoint: string | null;
  /** Event index of the checkpoint's SAVE (null for the main branch). */
  forkEvent: number | null;
  /** Event index of the LOAD that opened it. */
  openedBy: number | null;
  note: string | null;
  events: number[];
  children: string[];
}

export interface Checkpoint {
  name: string;
  event: number;
  branch: string;
  step: number | null;
  loads: number;
  redefinedBy: number | null;
}

export interface Rewind {
  event: number;
  checkpoint: string;
  fromBranch: string;
  toBranch: string;
  note: string | null;
  /** How many events this rewind discarded; each discarded event's item names its rewind. */
  discardedCount: number;
}

export interface Judged {
  event: number;
  verdict: 'ACCEPT' | 'REJECT';
  reason: string | null;
}

export interface Claim {
  event: number;
  type: 'check' | 'answer';
  expression: string;
  parsed: ParsedExpression;
  verdicts: Judged[];
}

export interface EventRecord {
  branch: string;
  /** Previous event on this event's line (-1 at the root). */
  prev: number;
  depth: number;
  command: Command | null;
  verdict: Judged | null;
  /** The claim (CHECK/ANSWER) a verdict here judges, or the latest claim on the line. */
  latestClaim: number;
  /** NO_FINDINGS when the event has none. */
  findings: readonly Finding[];
  discardedBy: number | null;
}

export interface Session {
  records: EventRecord[];
  branches: Map<string, Branch>;
  checkpoints: Checkpoint[];
  rewinds: Rewind[];
  claims: Map<number, Claim>;
  findings: Finding[];
  /** The final line, root first. */
  finalPath: number[];
  sketches: { event: number; text: string }[];
}

/** Shared empty findings of an event without any; replaced (never pushed to) on the first. */
export const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

export function replaySession(events: readonly EmulatorEvent[]): Session {
  const records: EventRecord[] = [];
  const main: Branch = {
    id: 'main',
    parent: null,
    checkpoint: null,
    forkEvent: null,
    openedBy: null,
    note: null,
    events: [],
    children: [],
  };
  const branches = new Map<string, Branch>([[main.id, main]]);
  const byName = new Map<string, Checkpoint>();
  const checkpoints: Checkpoint[] = [];
  const rewinds: Rewind[] = [];
  const claims = new Map<number, Claim>();
  const findings: Finding[] = [];
  const sketches: { event: number; text: string }[] = [];
  let current = main;
  let head = -1;
  let lastStep: { step: number; event: number } | null = null;

  // One parse per distinct CHECK/ANSWER expression: logs repeat the same few claims.
  const parsedCache = new Map<string, ParsedExpression>();
  const parse = (expression: string): ParsedExpression => {
    let parsed = parsedCache.get(expression);
    if (parsed === undefined) {
      parsed = parseDsl(expression);
      parsedCache.set(expression, parsed);
    }
    return parsed;
  };
  let i = 0;
  // The current event's findings, created on its first: most events have none.
  let eventFindings: Finding[] | null = null;
  // Declared once, not per event: records a finding on the current event.
  const find = (code: FindingCode, message: string): void => {
    const f = { event: i, code, message };
    (eventFindings ??= []).push(f);
    findings.push(f);
  };

  for (; i < events.length; i++) {
    const ev = events[i]!;
    const prev = head < 0 ? null : records[head]!;
    eventFindings = null;
    const rec: EventRecord = {
      branch: current.id,
      prev: head,
      depth: prev === null ? 0 : prev.depth + 1,
      command: null,
      verdict: null,
      latestClaim: prev === null ? -1 : prev.latestClaim,
      findings: NO_FINDINGS,
      discardedBy: null,
    };
    records.push(rec);

    if (ev.step !== undefined) {
      if (lastStep && ev.step <= lastStep.step)
        find(
          'non_increasing_step',
          `step ${ev.step} does not increase on step ${lastStep.step} (${eventId(lastStep.event)})`,
        );
      lastStep = { step: ev.step, event: i };
    }

    // The usual spellings need no normalising copy.
    const kind = ev.kind === 'control' || ev.kind === 'verifier' ? ev.kind : ev.kind.trim().toLowerCase();
    if (kind === 'control') {
      const cmd = parseCommand(ev.detail, parse);
      rec.command = cmd;
      switch (cmd.type) {
        case 'invalid':
          find(cmd.code, cmd.message);
          break;
        case 'save': {
          const previous = byName.get(cmd.name);
          if (previous) {
            previous.redefinedBy = i;
            find(
              'checkpoint_redefined',
              `checkpoint "${cmd.name}" was saved before at ${eventId(previous.event)}; later LOADs use this one`,
            );
          }
          const cp: Checkpoint = {
            name: cmd.name,
            event: i,
            branch: current.id,
            step: ev.step ?? null,
            loads: 0,
            redefinedBy: null,
          };
          checkpoints.push(cp);
          byName.set(cmd.name, cp);
          break;
        }
        case 'load': {
          const cp = byName.get(cmd.name);
          if (!cp) {
            const known = [...byName.keys()].slice(0, 10).map((n) => `"${n}"`);
            find(
              'unknown_checkpoint',
              `LOAD of unknown checkpoint "${cmd.name}"${known.length ? `; saved so far: ${known.join(', ')}` : '; nothing has been saved yet'}; no rewind happened`,
            );
            break;
          }
          cp.loads++;
          const parent = branches.get(cp.branch)!;
          const branch: Branch = {
            id: `b${branches.size}`,
            parent: parent.id,
            checkpoint: cp.name,
            forkEvent: cp.event,
            openedBy: i,
            note: cmd.note,
            events: [],
            children: [],
          };
          branches.set(branch.id, branch);
          parent.children.push(branch.id);
          const abandonedEvents = abandoned(records, head, cp.event);
          for (const d of abandonedEvents) records[d]!.discardedBy = i;
          const discardedCount = abandonedEvents.length;
          rewinds.push({
            event: i,
            checkpoint: cp.name,
            fromBranch: current.id,
            toBranch: branch.id,
            note: cmd.note,
            discardedCount,
          });
          rec.prev = cp.event;
          rec.depth = records[cp.event]!.depth + 1;
          rec.latestClaim = records[cp.event]!.latestClaim;
          rec.branch = branch.id;
          current = branch;
          break;
        }
        case 'check':
        case 'answer':
          claims.set(i, {
            event: i,
            type: cmd.type,
            expression: cmd.expression,
            parsed: cmd.parsed,
            verdicts: [],
          });
          rec.latestClaim = i;
          if (!cmd.parsed.ok)
            find(
              'expression_parse_error',
              `${cmd.type.toUpperCase()} expression does not parse at column ${cmd.parsed.column}: ${cmd.parsed.message}`,
            );
          break;
        case 'sketch':
          sketches.push({ event: i, text: cmd.text });
          break;
      }
    } else if (kind === 'verifier') {
      const v = parseVerdict(ev.detail);
      if (v.type === 'invalid') find('unrecognised_verdict', v.message);
      else {
        rec.verdict = { event: i, verdict: v.verdict, reason: v.reason };
        if (v.verdict === 'REJECT' && !v.reason) find('reject_without_reason', 'REJECT carries no reason');
        const claim = claims.get(rec.latestClaim);
        if (claim) claim.verdicts.push(rec.verdict);
        else find('verdict_without_subject', `${v.verdict} with no CHECK or ANSWER before it on this line`);
      }
    }
    if (eventFindings) rec.findings = eventFindings;
    current.events.push(i);
    head = i;
  }

  const finalPath: number[] = [];
  for (let e = head; e >= 0; e = records[e]!.prev) finalPath.push(e);
  finalPath.reverse();
  return { records, branches, checkpoints, rewinds, claims, findings, finalPath, sketches };
}

/** An event's depth on its line; -1 above the root. */
function depthOf(records: readonly EventRecord[], e: number): number {
  return e < 0 ? -1 : records[e]!.depth;
}

/** Events on the line ending at `head` that are not on the line ending at `keep`. */
function abandoned(records: readonly EventRecord[], head: number, keep: number): number[] {
  const out: number[] = [];
  let a = head;
  let b = keep;
  const depth = (e: number): number => depthOf(records, e);
  while (depth(a) > depth(b)) {
    out.push(a);
    a = records[a]!.prev;
  }
  while (depth(b) > depth(a)) b = records[b]!.prev;
  while (a !== b) {
    out.push(a);
    a = records[a]!.prev;
    b = records[b]!.prev;
  }
  return out.reverse();
}

const IDS: string[] = [];

/** `e-0001` for the first event; memoised because a 5000-event receipt names each event several times. */
export function eventId(index: number): string {
  return (IDS[index] ??= `e-${String(index + 1).padStart(4, '0')}`);
}
