/**
 * What every reader produces: per item, the outcome of each run, the hash of the item's
 * input and which runs errored. Duplicate (item, run) rows are kept aside and listed, never
 * merged or dropped silently.
 */
import { invalidInput } from '../../core/errors.js';
import { inputText } from './input-hash.js';

export type FormatId =
  | 'inspect-eval'
  | 'inspect-json'
  | 'lm-eval-harness'
  | 'promptfoo'
  | 'openai-evals'
  | 'helm'
  | 'deepeval'
  | 'cohort-map'
  | 'cohort-jsonl'
  | 'cohort-csv';

export interface RunOutcome {
  passed: boolean;
  /** The harness recorded an error or a limit for this run (the errors policy decides). */
  errored: boolean;
}

export interface LogItem {
  id: string;
  /** Hash of the item's input as the harness wrote it or as computed here; null if none. */
  inputHash: string | null;
  /** The item's input as text, kept only when a reader is asked to (clean-versus-full audits it). */
  inputText?: string | null;
  /** Run key (epoch, repeat, trial) -> outcome. */
  runs: Map<number, RunOutcome>;
}

export interface Duplicate {
  item_id: string;
  run: number;
  /** Where the repeated row was (a line, a zip member, an array index). */
  at: string;
}

export interface LogCohort {
  format: FormatId;
  harness: string;
  harness_version: string | null;
  task: string | null;
  model: string | null;
  /** The scorer, metric or stat the outcomes come from. */
  measure: string | null;
  items: Map<string, LogItem>;
  duplicates: Duplicate[];
  /** Rows (samples) read. */
  rows: number;
}

/** Hard cap on items per side: the receipt lists every item. */
export const MAX_LOG_ITEMS = 50_000;

export class CohortBuilder {
  readonly items = new Map<string, LogItem>();
  readonly duplicates: Duplicate[] = [];
  rows = 0;

  constructor(
    private readonly sourceName: string,
    /** Keep each item's input text (ReadOptions.keep_inputs). */
    private readonly keepInputs = false,
  ) {}

  add(
    id: string,
    run: number,
    outcome: RunOutcome,
    inputHash: string | null,
    at: string,
    input?: unknown,
  ): void {
    this.rows++;
    let item = this.items.get(id);
    if (!item) {
      if (this.items.size >= MAX_LOG_ITEMS)
        throw invalidInput(`${this.sourceName}: more than ${MAX_LOG_ITEMS} items; split the log.`);
      item = { id, inputHash, runs: new Map() };
      this.items.set(id, item);
    }
    if (item.runs.has(run)) {
      this.duplicates.push({ item_id: id, run, at });
      return;
    }
    if (item.inputHash === null) item.inputHash = inputHash;
    if (this.keepInputs && !item.inputText) item.inputText = inputText(input);
    item.runs.set(run, outcome);
  }

  /** The next run key for an item whose runs carry no index (promptfoo repeats). */
  nextRun(id: string): number {
    return (this.items.get(id)?.runs.size ?? 0) + 1;
  }

  finish(meta: Omit<LogCohort, 'items' | 'duplicates' | 'rows'>): LogCohort {
    if (this.items.size === 0)
      throw invalidInput(`${this.sourceName}: the ${meta.harness} log holds no items.`);
    return { ...meta, items: this.items, duplicates: this.duplicates, rows: this.rows };
  }
}

/** A 400 naming the value asked for and the ones the log offers. */
export function unknownChoice(source: string, what: string, asked: string, offered: Iterable<string>): Error {
  const list = [...new Set(offered)].sort();
  return invalidInput(
    `${source}: no ${what} "${asked}" in this log; it has ${list.length === 0 ? 'none' : list.map((s) => `"${s}"`).join(', ')}.`,
    [{ path: `/options/${what}`, message: `choose one of: ${list.join(', ') || '(none)'}` }],
  );
}

/** When the caller named none: the only one the log offers, else a 400 naming the choices. */
export function onlyChoice(source: string, what: string, offered: Iterable<string>): string {
  const list = [...new Set(offered)].sort();
  if (list.length === 1) return list[0]!;
  throw invalidInput(
    `${source}: the log has ${list.length === 0 ? 'no' : list.length} ${what}s${list.length ? ` (${list.map((s) => `"${s}"`).join(', ')})` : ''}; name one with the ${what} option.`,
    [{ path: `/options/${what}`, message: `choose one of: ${list.join(', ') || '(none)'}` }],
  );
}

export function asRecord(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export function idString(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}
