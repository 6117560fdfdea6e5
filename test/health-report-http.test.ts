/** HTTP-level tests of POST /api/health-report through the real app. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp } from './helpers/eval-app.js';
import { byId, expectExampleAnswers, postBad, postOk } from './helpers/tool-http.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeEvalApp();
});
afterAll(async () => {
  await app.close();
});

describe('POST /api/health-report', () => {
  it('classifies the published example: stable saturated, frontier discriminating, hard too_hard, noisy flaky', async () => {
    const r = await expectExampleAnswers(
      app,
      'health',
      { operationId: 'health', endpoint: '/api/health-report' },
      'NEEDS_WORK',
    );
    expect(byId(r, 'stable').item_class).toBe('saturated');
    expect(byId(r, 'frontier').item_class).toBe('discriminating');
    expect(byId(r, 'hard').item_class).toBe('too_hard');
    // model-a ran noisy T F T F T: 4 flips in 4 pairs, 95% lower bound 0.51 > 0.10.
    expect(byId(r, 'noisy').item_class).toBe('flaky');
    expect(byId(r, 'fresh').item_class).toBe('unmeasured');
    expect(r.result.thresholds).toMatchObject({ flaky_min_flips: 2, flaky_flip_rate_lower_bound_above: 0.1 });
  });

  it('classifies every item of a 5000-row history', async () => {
    const history = Array.from({ length: 5000 }, (_, i) => ({
      item_id: `it-${i % 1250}`,
      system: `sys-${Math.floor(i / 1250)}`,
      passed: (i % 1250) % 3 !== 0 || i < 2500,
    }));
    const items = Array.from({ length: 1260 }, (_, i) => ({ item_id: `it-${i}` }));
    const r = await postOk(app, '/api/health-report', { history, items });
    expect(r.items).toHaveLength(1260);
    expect(r.summary.classes.unmeasured).toBe(10);
    expect(r.summary.classes.discriminating + r.summary.classes.saturated).toBe(1250);
  });

  it('answers 400 for 5001 rows and for non-object rows', async () => {
    const row = { item_id: 'a', system: 's', passed: true };
    expect(
      (await postBad(app, '/api/health-report', { history: Array.from({ length: 5001 }, () => row) }))
        .errors[0].path,
    ).toBe('/history');
    expect((await postBad(app, '/api/health-report', { history: [row, 7] })).errors[0].path).toBe(
      '/history/1',
    );
  });
});
