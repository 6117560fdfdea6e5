/**
 * The workbench checks a published receipt against the transparency log in Chromium: the leaf
 * hash and audit path with WebCrypto SHA-256, the tree head with WebCrypto Ed25519; a receipt
 * changed in the receipts table (the log untouched) is reported as not in the log.
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from './helpers/browser.js';
import { testDatabaseUrl } from './helpers/music-env.js';
import { publishSolved } from './helpers/open-bench.js';
import { openWorkbench, type WorkbenchFixture } from './helpers/workbench-fixture.js';

describe('workbench log check in Chromium', () => {
  let fixture: WorkbenchFixture | undefined;
  let app: FastifyInstance;
  let base: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    fixture = await openWorkbench({ DATABASE_URL: testDatabaseUrl() });
    ({ app, base, browser } = fixture);
  }, 240_000);

  afterAll(async () => fixture?.close());

  const publish = (name: string): Promise<string> => publishSolved(app, name);

  it('shows "included in the log at index N, tree head signed at …", and refuses a receipt changed behind the log', async () => {
    const good = await publish('browser-log-good');
    const changed = await publish('browser-log-changed');
    const index = Number(
      (await app.inject(`/api/open-bench/receipt/${good}`)).headers['open-bench-log-leaf-index'],
    );
    const { page, errors } = await browser.page();
    await page.goto(`${base}/leaderboard?per_page=100`);
    await page.getByRole('button', { name: `Check ${good} in the log` }).click();
    await expect
      .poll(() => page.getByTestId('log-check').textContent(), { timeout: 30_000 })
      .toMatch(
        new RegExp(
          `^Included in the log at index ${index}, tree head signed at 20\\d\\d-.*checked in this browser`,
        ),
      );
    const db = new pg.Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      await db.query(
        `UPDATE open_bench_receipts SET receipt = jsonb_set(receipt, '{display_name}', '"forged"') WHERE public_id = $1`,
        [changed],
      );
    } finally {
      await db.end();
    }
    await page.getByRole('button', { name: `Check ${changed} in the log` }).click();
    await expect
      .poll(() => page.getByTestId('log-check').textContent(), { timeout: 30_000 })
      .toMatch(/^Log check failed: No entry with that leaf hash is in the log/);
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
  });
});
