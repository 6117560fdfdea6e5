/** A logs-gate receipt as a short table for a CI log, and as Markdown for a job summary. */
import type { Receipt } from '../../core/receipt.js';

interface Rate {
  successes: number;
  trials: number;
  rate: number | null;
  wilson_low: number | null;
  wilson_high: number | null;
}

const pct = (x: number | null): string => (x === null ? '-' : `${(100 * x).toFixed(1)}%`);
const rateText = (r: Rate): string =>
  `${pct(r.rate)} [${pct(r.wilson_low)}, ${pct(r.wilson_high)}] (${r.successes}/${r.trials} runs)`;

function rows(receipt: Receipt): [string, string][] {
  const s = receipt.summary;
  const r = receipt.result;
  const flaky = s.flaky as { baseline: number; candidate: number };
  const test = r.sign_flip_test as { method: string; error_bound_99?: number };
  return [
    ['verdict', String(receipt.verdict)],
    ['items', String(s.items)],
    ['gains', String(s.gains)],
    ['regressions', String(s.regressions)],
    [
      'p (one-sided)',
      `${String(s.p_one_sided)} (${test.method}${test.error_bound_99 !== undefined ? ` ±${test.error_bound_99}` : ''})`,
    ],
    [`baseline ${String(s.baseline_name)}`, rateText(r.baseline_pass_rate as Rate)],
    [`candidate ${String(s.candidate_name)}`, rateText(r.candidate_pass_rate as Rate)],
    ['flaky', `baseline ${flaky.baseline}, candidate ${flaky.candidate}`],
    ['unmatched', `${String(s.unmatched)} (duplicates ${String(s.duplicates)})`],
    ...exposureRows(receipt),
  ];
}

/** Clean versus full: the full cohort's verdict and what the exposure audit left out. */
function exposureRows(receipt: Receipt): [string, string][] {
  const full = receipt.summary.full as Record<string, unknown> | undefined;
  const counts = receipt.summary.exposure as Record<string, number> | undefined;
  if (!full || !counts) return [];
  return [
    [
      'full cohort',
      `${String(full.verdict)} (${String(full.items)} items, ${String(full.gains)} gains, ${String(full.regressions)} regressions, p ${String(full.p_one_sided)})`,
    ],
    [
      'exposed',
      `${counts.quarantined} quarantined, ${counts.review} to review (verdict above: clean cohort)`,
    ],
  ];
}

export function gateTable(receipt: Receipt): string {
  const r = rows(receipt);
  const width = Math.max(...r.map(([k]) => k.length));
  return `${r.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n${receipt.next_action}\n`;
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');

export function gateSummaryMarkdown(receipt: Receipt): string {
  const body = rows(receipt)
    .map(([k, v]) => `| ${cell(k)} | ${cell(v)} |`)
    .join('\n');
  return `### Promotion gate: ${String(receipt.verdict)}\n\n| | |\n|---|---|\n${body}\n\n${cell(receipt.next_action)}\n`;
}
