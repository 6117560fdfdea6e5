/**
 * Payments in the player, in Chromium: a listener buys a track (the provider's Checkout played
 * by the local stand-in: its "Pay" sends the signed webhook, then redirects back), the outcome
 * page turns to paid once the payments queue applied the event, the original downloads, the
 * purchase is in the library and the artist's sales show it. Without the payment settings the
 * same track page shows no buy or tip control.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebApp, launchBrowser, listen, type TestBrowser } from './helpers/browser.js';
import { createMusicTestApp } from './helpers/music-app.js';
import { PASSWORD, signupUser } from './helpers/music-domain.js';
import {
  openBrowserPaymentsFixture,
  priceTrack,
  sellerWithTrack,
  type PaymentsFixture,
  type Seller,
} from './helpers/payments-fixture.js';

let f: PaymentsFixture;
let browser: TestBrowser;
let webRoot: string;
let cleanup: () => Promise<void>;
let base: string;
let seller: Seller;

beforeAll(async () => {
  const built = await buildWebApp('player');
  webRoot = built.root;
  cleanup = () => built.cleanup();
  ({ f, base } = await openBrowserPaymentsFixture(webRoot));
  seller = await sellerWithTrack(f.t, 'Bought In A Browser');
  await priceTrack(f.t, seller, { currency: 'eur', amount: 700, tips: true });
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await f?.close();
  await cleanup?.();
});

describe('payments in the player', () => {
  it('buy -> provider checkout (stand-in) -> signed webhook -> paid -> download the original', async () => {
    const buyer = await signupUser(f.t.app, 'listener');
    const { page, errors } = await browser.page();
    await page.goto(`${base}/login`);
    await page.getByLabel('Handle or email').fill(buyer.handle);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${base}/users/${buyer.handle}`);

    await page.goto(`${base}/tracks/${seller.trackId}`);
    await page.locator('[data-part="payments"][data-state="ready"]').waitFor({ state: 'attached' });
    const buy = page.getByRole('button', { name: /^Buy €7\.00$/ });
    await buy.click();
    await page.waitForURL(new RegExp(`^${f.provider.origin}/pay/cs_test_`));
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(new RegExp(`^${base}/purchases/[0-9a-f-]{36}\\?outcome=success$`));
    await page.locator('[data-status="paid"]').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Purchase of Bought In A Browser',
    );

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download original' }).click();
    const file = await downloading;
    const path = await file.path();
    expect((await readFile(path)).equals(seller.original)).toBe(true);

    await page.goto(`${base}/me/purchases`);
    await page.locator('[data-part="purchases"][data-state="ready"]').waitFor();
    expect(await page.locator('li[data-status="paid"]').count()).toBe(1);

    // Tip: the amount as a person types it, checked before leaving for the checkout.
    await page.goto(`${base}/tracks/${seller.trackId}`);
    const tip = page.getByLabel('Tip (EUR)');
    await tip.fill('2.5x');
    await page.getByRole('button', { name: 'Send tip' }).click();
    expect(await page.getByTestId('payment-status').textContent()).toMatch(/Enter an amount in EUR/);
    await tip.fill('2,50');
    await page.getByRole('button', { name: 'Send tip' }).click();
    await page.waitForURL(new RegExp(`^${f.provider.origin}/pay/`));
    const session = [...f.provider.sessions.values()].at(-1)!;
    expect([session.amount_total, session.currency, session.metadata.kind]).toEqual([250, 'eur', 'tip']);
    expect(errors).toEqual([]);

    const artist = await browser.page();
    await artist.page.goto(`${base}/login`);
    await artist.page.getByLabel('Handle or email').fill(seller.user.handle);
    await artist.page.getByLabel('Password').fill(PASSWORD);
    await artist.page.getByRole('button', { name: 'Log in', exact: true }).click();
    await artist.page.waitForURL(`${base}/users/${seller.user.handle}`);
    await artist.page.goto(`${base}/me/sales`);
    await artist.page.locator('[data-part="sales"][data-state="ready"]').waitFor();
    expect(await artist.page.locator('tr[data-currency="eur"] [data-testid="net"]').textContent()).toBe(
      '€7.00',
    );
    // The artist's own track offers them nothing to buy.
    await artist.page.goto(`${base}/tracks/${seller.trackId}`);
    await artist.page.getByRole('heading', { level: 1 }).waitFor();
    expect(await artist.page.getByRole('button', { name: /^Buy/ }).count()).toBe(0);
    expect(artist.errors).toEqual([]);
  }, 120_000);

  it('without the payment settings the track page shows no buy or tip control (and no console error)', async () => {
    const off = await createMusicTestApp({ RATE_LIMITS: 'off' }, { webRoot });
    try {
      const offBase = await listen(off.app);
      const plain = await sellerWithTrack(off, 'Free Only');
      await off.connections.prisma.trackPrice.create({
        data: { trackId: plain.trackId, currency: 'eur', amountMinor: 700, tips: true },
      });
      const { page, errors } = await browser.page();
      try {
        await page.goto(`${offBase}/tracks/${plain.trackId}`);
        await page.locator('[data-part="payments"][data-state="ready"]').waitFor({ state: 'attached' });
        expect(await page.locator('[data-part="payments"]').innerHTML()).toBe('');
        expect(await page.getByRole('button', { name: /Buy|tip/i }).count()).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        // The page first: its live socket to this app would otherwise be open while the app closes.
        await page.close();
      }
    } finally {
      await off.close();
    }
  }, 60_000);
});
