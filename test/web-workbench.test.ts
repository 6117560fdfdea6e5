/**
 * The verifier workbench in a real browser (Debian's Chromium, headless): every tool page runs
 * its /api/examples payload and shows verdict, decision path and certificate; a broken payload
 * shows the 400's messages beside the editor; a downloaded receipt verifies in the browser and a
 * tampered one names the failing hash; 5000 items stay virtualised; report card and leaderboard.
 * No console errors, every control named, no sideways scrolling at 375 px.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCardWarmed } from '../src/eval/app.js';
import { TOOLS } from '../src/eval/registry.js';
import { horizontalOverflow, screenshots, unnamedControls, type TestBrowser } from './helpers/browser.js';
import { openWorkbench, type WorkbenchFixture } from './helpers/workbench-fixture.js';

// Callbacks run inside the page: its DOM globals, typed loosely here (the Node project has no DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const DataTransfer: any;
declare const DragEvent: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A report-card counterexample as the API returns it (src/eval/report-card/grade.ts). */
interface Counterexample {
  n: number;
  edges: [number, number][];
  checks: {
    greedy_colouring?: { colours: number[] };
    optimal_colouring?: { colours: number[] };
    greedy_set?: { vertices: number[] };
    maximum_set?: { vertices: number[] };
  };
}

/** What each tool's certificate must draw for its example (a selector inside the certificate). */
const CERTIFICATES: Record<string, { verdict: RegExp; selector: string; count?: number }> = {
  counterexample: { verdict: /FALSIFIED/, selector: '.graph svg g.vertex[data-colour]', count: 20 },
  gate: { verdict: /PASS/, selector: 'figure.domain-bars[data-domain="algebra"] svg line.ci' },
  health: { verdict: /NEEDS_WORK/, selector: 'figure.domain-bars[data-domain="geometry"] svg rect' },
  inspector: { verdict: /PASS/, selector: 'figure.domain-bars svg line.ci' },
  leakage: { verdict: /LEAKED/, selector: '.pair[data-pair="q-004:3"] .side', count: 2 },
  memory: { verdict: /SELECTED/, selector: '[data-ranking="relevance"] .badge.promoted' },
  replay: { verdict: /ACCEPTED/, selector: '.event.discarded circle' },
  safepatch: { verdict: /APPLIED/, selector: 'table.diff td.removed, table.diff td.added' },
};

describe('verifier workbench in Chromium', () => {
  let fixture: WorkbenchFixture | undefined;
  let app: FastifyInstance;
  let base: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    fixture = await openWorkbench();
    ({ app, base, browser } = fixture);
    await reportCardWarmed(app);
  }, 240_000);

  afterAll(async () => fixture?.close());

  async function runExample(page: Page, tool: string): Promise<void> {
    await page.goto(`${base}/tools/${tool}`);
    await page.waitForFunction(() => document.querySelector('#request')?.value.startsWith('{'));
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('verdict').waitFor();
  }

  for (const [tool, expected] of Object.entries(CERTIFICATES)) {
    it(`${tool}: the example runs and shows verdict, decision path and certificate`, async () => {
      const { page, errors } = await browser.page();
      await runExample(page, tool);
      await expect.poll(() => page.getByTestId('verdict').textContent()).toMatch(expected.verdict);
      expect(await page.locator('.decision-path li').count()).toBeGreaterThan(2);
      const drawn = page.getByTestId('certificate').locator(expected.selector);
      await drawn.first().waitFor({ state: 'attached' });
      expect(await drawn.count()).toBeGreaterThanOrEqual(expected.count ?? 1);
      expect(await page.locator('table.items tbody tr[data-item]').count()).toBeGreaterThan(0);
      expect(await unnamedControls(page)).toEqual([]);
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await horizontalOverflow(page)).toEqual([]);
      await screenshots(page, `workbench-${tool}`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('counterexample: the witness is drawn twice, coloured by the greedy and by the optimal colouring', async () => {
    const { page, errors } = await browser.page();
    await runExample(page, 'counterexample');
    const receipt = (
      await app.inject({
        method: 'POST',
        url: '/api/counterexample',
        payload: (await app.inject('/api/examples')).json().examples.counterexample,
      })
    ).json();
    const { greedy_colouring, optimal_colouring } = receipt.result.witness.checks;
    const colours = (figure: number) =>
      page
        .locator('.graph')
        .nth(figure)
        .locator('g.vertex')
        .evaluateAll((gs) => gs.map((g) => Number(g.getAttribute('data-colour'))));
    expect(await colours(0)).toEqual(greedy_colouring.colours);
    expect(await colours(1)).toEqual(optimal_colouring.colours);
    expect(await page.locator('.graph').nth(0).locator('line.edge').count()).toBe(
      receipt.result.witness.edges.length,
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a broken payload shows the 400 and each message beside the editor', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${base}/tools/gate`);
    await page
      .locator('#request')
      .fill('{"baseline": {"a": 1}, "candidate": {"a": true}, "policy": {"min_gains": -1}}');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('problem').waitFor();
    expect(await page.getByTestId('problem').textContent()).toMatch(
      /400 Invalid input.*Check baseline\.a and policy\.min_gains/,
    );
    const messages = await page.locator('#request-errors li').allTextContents();
    expect(messages).toEqual([
      '/baseline/a is the number 1; it must be true or false',
      '/policy/min_gains is the number -1; it must be a whole number of at least 0',
    ]);
    expect(await page.locator('#request').getAttribute('aria-invalid')).toBe('true');
    // Not JSON at all: JSON.parse's reason from the server.
    await page.locator('#request').fill('{"baseline":');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('problem').textContent())
      .toMatch(/400 Malformed JSON.*not valid JSON/);
    await screenshots(page, 'workbench-gate-400');
    // The server answered 400 on purpose: Chromium logs those fetches as "Failed to load resource".
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await page.close();
  });

  it('the downloaded receipt verifies in the browser; a tampered one names the failing hash', async () => {
    const { page, errors } = await browser.page();
    await runExample(page, 'gate');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('gate-receipt.json');
    const text = await readFile(await download.path(), 'utf8');
    const served = await app.inject({
      method: 'POST',
      url: '/api/gate',
      payload: (await app.inject('/api/examples')).json().examples.gate,
    });
    expect(text).toBe(served.body);

    const drop = async (name: string, content: string): Promise<string> => {
      await page.evaluate(
        ([n, c]) => {
          const dt = new DataTransfer();
          dt.items.add(new File([c!], n!, { type: 'application/json' }));
          document
            .querySelector('.drop-zone')!
            .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        },
        [name, content],
      );
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid="verify-summary"]')?.textContent?.startsWith(n),
        name,
      );
      return (await page.getByTestId('verify-summary').textContent())!;
    };
    expect(await drop('good.json', text)).toBe('good.json: every hash holds');
    const receipt = JSON.parse(text);
    receipt.summary.gains = 7;
    expect(await drop('summary.json', JSON.stringify(receipt))).toBe(
      'summary.json: receipt_sha256 does not match',
    );
    receipt.summary.gains = 6;
    receipt.result.counts.gains = 7;
    expect(await drop('result.json', JSON.stringify(receipt))).toBe(
      'result.json: result_sha256, receipt_sha256 do not match',
    );
    const items = JSON.parse(text);
    items.items[0].item_id = 'q-99';
    expect(await drop('items.json', JSON.stringify(items))).toMatch(
      /^items\.json: items_sha256, receipt_sha256 do not match/,
    );
    // The file chooser path too.
    await page
      .locator('#verify-file')
      .setInputFiles({ name: 'chosen.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="verify-summary"]')?.textContent?.startsWith('chosen.json'),
    );
    expect(await page.getByTestId('verify-summary').textContent()).toBe('chosen.json: every hash holds');
    await screenshots(page, 'workbench-verify');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('5000 items: the table renders a window of rows, scrolls to the last and sorts', async () => {
    const { page, errors } = await browser.page();
    const ids = Array.from({ length: 5000 }, (_, i) => `item-${String(i).padStart(4, '0')}`);
    const body = {
      baseline: Object.fromEntries(ids.map((id, i) => [id, i % 3 === 0])),
      candidate: Object.fromEntries(ids.map((id, i) => [id, i % 2 === 0])),
    };
    await page.goto(`${base}/tools/gate`);
    await page.locator('#request').fill(JSON.stringify(body));
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('verdict').waitFor();
    expect(await page.locator('#items-title').textContent()).toBe('Items (5000)');
    const rows = page.locator('table.items tbody tr[data-item]');
    expect(await rows.count()).toBeLessThan(60);
    await page.locator('.table-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.locator('tr[data-item="item-4999"]').waitFor();
    expect(await rows.count()).toBeLessThan(60);
    await page.getByRole('button', { name: 'decision' }).click();
    await page.locator('.table-scroll').evaluate((el) => el.scrollTo(0, 0));
    await expect.poll(() => page.locator('th[aria-sort="ascending"]').textContent()).toMatch(/^decision/);
    await expect.poll(() => rows.first().locator('td').nth(1).textContent()).toBe('both_fail');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('report card: start, answer, and the signed grade verifies in the browser', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${base}/report-card`);
    await page.getByRole('button', { name: 'Start a session' }).click();
    await page.getByLabel('Answer for item-6').waitFor();
    expect(await page.locator('fieldset.rc-item').count()).toBe(6);
    // The class itself is no repair: the heuristic fails on some of its graphs.
    const submitted = page.waitForResponse((r) => r.url().endsWith('/api/report-card/submit'));
    await page.getByRole('button', { name: 'Submit the answers' }).click();
    const graded = (await (await submitted).json()) as {
      result: { items: { item_id: string; message: string; counterexample?: Counterexample }[] };
    };
    await page.getByTestId('grade').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('grade').textContent()).toBe('0 of 6 repaired');
    // Every grade that cites a counterexample draws it twice: greedy and optimal colourings, or
    // the greedy and a maximum independent set; each drawing colours the vertices as the API says.
    const cited = graded.result.items.filter((g) => /see counterexample/.test(g.message));
    expect(cited.length).toBeGreaterThan(0);
    for (const g of cited) {
      const cx = g.counterexample!;
      const drawn = page.getByTestId(`counterexample-${g.item_id}`).locator('figure.graph');
      expect(await drawn.count(), g.item_id).toBe(2);
      const expected = cx.checks.greedy_colouring
        ? [cx.checks.greedy_colouring.colours, cx.checks.optimal_colouring!.colours]
        : [cx.checks.greedy_set!.vertices, cx.checks.maximum_set!.vertices].map((set) =>
            Array.from({ length: cx.n }, (_, v) => (set.includes(v) ? 1 : 0)),
          );
      for (const [k, colours] of expected.entries()) {
        const vertices = drawn.nth(k).locator('g.vertex');
        expect(await vertices.count()).toBe(cx.n);
        expect(await drawn.nth(k).locator('line.edge').count()).toBe(cx.edges.length);
        expect(
          await vertices.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-colour')))),
        ).toEqual(colours);
      }
    }
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(await page.getByTestId('signature-check').textContent()).toMatch(
      /^Signature verified in this browser: signed by key /,
    );
    expect(await unnamedControls(page)).toEqual([]);
    await screenshots(page, 'workbench-report-card');
    // The graded card (signature, hashes, graphs) fits a phone's width.
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a mistyped URL is a page that says so (404), not a problem document; API clients keep the problem', async () => {
    const { page, errors } = await browser.page(375);
    for (const path of ['/tools/gatee', '/report-crad']) {
      const response = await page.goto(`${base}${path}`);
      expect(response?.status()).toBe(404);
      expect(response?.headers()['content-type']).toMatch(/^text\/html/);
      await page
        .getByRole('alert')
        .filter({ hasText: `No page at ${path}; pick a tool below.` })
        .waitFor();
      expect(await page.locator('.tool-list a').count()).toBe(TOOLS.length);
    }
    expect(await horizontalOverflow(page)).toEqual([]);
    await screenshots(page, 'workbench-not-found');
    const api = await app.inject({ url: '/api/nope', headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/problem\+json/);
    const json = await app.inject({ url: '/tools/gatee', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json().detail).toMatch(/^No tool gatee; the tools are /);
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    await page.close();
  });

  it('leaderboard: a server without the open bench says so plainly', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${base}/leaderboard`);
    await page.getByTestId('leaderboard-message').waitFor();
    const status = (await app.inject('/api/open-bench/leaderboard')).statusCode;
    const message = await page.getByTestId('leaderboard-message').textContent();
    if (status === 404) expect(message).toMatch(/no open-bench leaderboard \(404\)/);
    else if (status === 503) expect(message).toMatch(/unavailable right now \(503\)/);
    else expect(message).toBe('No published receipts yet.');
    expect(await unnamedControls(page)).toEqual([]);
    await screenshots(page, 'workbench-leaderboard');
    expect(errors.filter((e) => !/status of (404|503)/.test(e))).toEqual([]);
    await page.close();
  });

  it('home: lists every registered tool and links each page', async () => {
    const { page, errors } = await browser.page(375);
    await page.goto(`${base}/`);
    await page.locator('.tool-list a').first().waitFor();
    expect(await page.locator('.tool-list a').count()).toBe(TOOLS.length);
    await page.getByRole('link', { name: 'SafePatch' }).click();
    await page.waitForURL(`${base}/tools/safepatch`);
    await page.getByRole('heading', { name: 'SafePatch' }).waitFor();
    expect(await unnamedControls(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
