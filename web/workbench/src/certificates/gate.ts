/** Gate and inspect: per domain, both pass rates as bars with their 95% Wilson intervals. */
import { h, s, fmt } from '../../../shared/dom';
import { asArray, asRecord, str, type Rate, type Receipt } from '../api';

const W = 320;
const BAR = 14;

function rateBar(label: string, rate: Rate, cls: string, y: number): SVGElement[] {
  const x = (v: number | null): number => (v ?? 0) * W;
  return [
    s('rect', { x: 0, y, width: W, height: BAR, class: 'track' }),
    s('rect', { x: 0, y, width: x(rate.rate), height: BAR, class: cls }),
    s('line', {
      x1: x(rate.wilson_low),
      x2: x(rate.wilson_high),
      y1: y + BAR / 2,
      y2: y + BAR / 2,
      class: 'ci',
    }),
    s('line', { x1: x(rate.wilson_low), x2: x(rate.wilson_low), y1: y + 2, y2: y + BAR - 2, class: 'ci' }),
    s('line', { x1: x(rate.wilson_high), x2: x(rate.wilson_high), y1: y + 2, y2: y + BAR - 2, class: 'ci' }),
    s(
      'title',
      {},
      `${label}: ${fmt(rate.rate)} (${rate.successes}/${rate.trials}), 95% interval ${fmt(rate.wilson_low)}–${fmt(rate.wilson_high)}`,
    ),
  ];
}

function domainRow(name: string, d: Record<string, unknown>, names: [string, string]): HTMLElement {
  const base = asRecord(d.baseline_pass_rate) as unknown as Rate;
  const cand = asRecord(d.candidate_pass_rate) as unknown as Rate;
  return h(
    'figure',
    { class: 'domain-bars', 'data-domain': name },
    h(
      'figcaption',
      {},
      h('strong', {}, name),
      ` · gains ${String(d.gains)} · regressions ${String(d.regressions)} · ${String(d.items)} items`,
    ),
    s(
      'svg',
      {
        viewBox: `0 0 ${W} ${2 * BAR + 6}`,
        role: 'img',
        'aria-label': `${name}: ${names[0]} ${fmt(base.rate)}, ${names[1]} ${fmt(cand.rate)}`,
      },
      ...rateBar(names[0], base, 'baseline', 0),
      ...rateBar(names[1], cand, 'candidate', BAR + 6),
    ),
  );
}

export function gateBars(result: Record<string, unknown>, summary: Record<string, unknown>): HTMLElement {
  const names: [string, string] = [
    str(summary.baseline_name) || 'baseline',
    str(summary.candidate_name) || 'candidate',
  ];
  const counts = asRecord(result.counts);
  return h(
    'div',
    { class: 'gate-cert' },
    h(
      'p',
      { class: 'legend' },
      h('span', { class: 'key baseline' }, names[0]),
      h('span', { class: 'key candidate' }, names[1]),
      ' whiskers: 95% Wilson interval',
    ),
    domainRow(
      'all items',
      {
        ...counts,
        gains: counts.gains,
        regressions: counts.regressions,
        baseline_pass_rate: result.baseline_pass_rate,
        candidate_pass_rate: result.candidate_pass_rate,
      },
      names,
    ),
    asArray(result.domains).map((d) => domainRow(String(asRecord(d).domain), asRecord(d), names)),
    h(
      'p',
      {},
      `Sign test: one-sided p = ${fmt(asRecord(result.sign_test).p_one_sided as number, 6)}; more clean gains needed: ${str(result.additional_clean_gains_needed) || '—'}`,
    ),
  );
}

export function gateCertificate(receipt: Receipt): Node {
  return gateBars(receipt.result, receipt.summary);
}

export function inspectCertificate(receipt: Receipt): Node {
  const gate = asRecord(receipt.result.gate);
  const cohort = asRecord(receipt.result.cohort_check);
  const leakage = asRecord(receipt.result.leakage);
  return h(
    'div',
    {},
    h(
      'p',
      {},
      `Quarantined before gating: ${asArray(leakage.quarantined_items).join(', ') || 'none'}; sent to review: ${asArray(leakage.review_items).join(', ') || 'none'}; clean cohort complete: ${cohort.complete === true ? 'yes' : 'no'}.`,
    ),
    Object.keys(gate).length
      ? gateBars(asRecord(gate.result), asRecord(gate.summary))
      : h('p', {}, 'The gate did not run: the clean cohort is incomplete.'),
  );
}
