import type { HealthReportRequest, HistoryRow } from './schema.js';

function runs(item_id: string, system: string, results: string, domain?: string): HistoryRow[] {
  return [...results].map((r) => ({
    item_id,
    system,
    passed: r === 'T',
    ...(domain !== undefined ? { domain } : {}),
  }));
}

/**
 * Two systems over seven items, one of each class: `stable` saturated, `frontier`
 * discriminating, `hard` too_hard, `noisy` flaky (model-a flips on every run), `drifting`
 * discriminating despite one flip (a fix is not flakiness), `solo` under-observed and `fresh`
 * unmeasured.
 */
export const healthReportExample: HealthReportRequest = {
  history: [
    ...runs('stable', 'model-a', 'TT', 'algebra'),
    ...runs('stable', 'model-b', 'TT'),
    ...runs('frontier', 'model-a', 'TT', 'algebra'),
    ...runs('frontier', 'model-b', 'FF'),
    ...runs('hard', 'model-a', 'FF', 'geometry'),
    ...runs('hard', 'model-b', 'FF'),
    ...runs('noisy', 'model-a', 'TFTFT', 'geometry'),
    ...runs('noisy', 'model-b', 'TTTTT'),
    ...runs('drifting', 'model-a', 'FFFTTT', 'geometry'),
    ...runs('drifting', 'model-b', 'TTT'),
    ...runs('solo', 'model-a', 'T', 'logic'),
  ],
  items: [
    { item_id: 'stable', domain: 'algebra' },
    { item_id: 'frontier', domain: 'algebra' },
    { item_id: 'hard', domain: 'geometry' },
    { item_id: 'noisy', domain: 'geometry' },
    { item_id: 'drifting', domain: 'geometry' },
    { item_id: 'solo', domain: 'logic' },
    { item_id: 'fresh', domain: 'logic' },
  ],
};
