/**
 * Prices, tips and Checkout Sessions through the official library pointed at the local
 * stand-in (which checks what the library sends), the buyer's library and signed downloads, the
 * artist's totals per currency from the ledger (everything off: music-payments-off.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadPath } from '../src/music/services/download-link.js';
import { createMusicTestApp, TEST_SECURE_LINK_SECRET } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import {
  PAYMENT_ENV,
  paidSession,
  providerEvent,
  TEST_PAYMENT_PUBLISHABLE_KEY,
  TEST_PAYMENT_SECRET_KEY,
  type SessionObject,
} from './helpers/payment-provider.js';
import {
  openSellerFixture,
  processed,
  PUBLIC_URL,
  sellerWithTrack,
  type PaymentsFixture,
  type Seller,
} from './helpers/payments-fixture.js';

let f: PaymentsFixture;
let seller: Seller;

beforeAll(async () => {
  ({ f, seller } = await openSellerFixture({ title: 'Priced' }));
}, 60_000);
afterAll(() => f?.close());

const inject = (method: 'GET' | 'PUT' | 'POST', url: string, who?: TestUser, payload?: unknown) =>
  f.t.app.inject({
    method,
    url,
    headers: { ...(who?.headers ?? {}), host: 'music.test:8081' },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const setPrice = (who: TestUser, trackId: string, body: unknown) =>
  inject('PUT', `/api/v1/payments/tracks/${trackId}`, who, body);

async function pay(session: SessionObject): Promise<void> {
  const event = providerEvent('checkout.session.completed', paidSession(session));
  const done = processed(f, event.id as string);
  expect((await f.provider.deliverVia(f.t.app, event)).statusCode).toBe(200);
  await done;
}

describe('prices and tips', () => {
  it('the server says payments are on, with the publishable key (public by design) and nothing secret', async () => {
    const status = await inject('GET', '/api/v1/payments');
    expect(status.json()).toEqual({ enabled: true, publishable_key: TEST_PAYMENT_PUBLISHABLE_KEY });
  });

  it('the owner sets a price; others may not; every bad amount is a 400 saying why', async () => {
    const ok = await setPrice(seller.user, seller.trackId, { currency: 'usd', amount: 500, tips: true });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      track_id: seller.trackId,
      currency: 'usd',
      amount: 500,
      for_sale: true,
      pay_what_you_want: false,
      tips: true,
    });
    const anyone = await inject('GET', `/api/v1/payments/tracks/${seller.trackId}`);
    expect(anyone.json()).toMatchObject({ amount: 500, owned: false });
    const own = await inject('GET', `/api/v1/payments/tracks/${seller.trackId}`, seller.user);
    expect(own.json().owned).toBe(true);
    const other = await signupUser(f.t.app, 'other');
    expect((await setPrice(other, seller.trackId, { currency: 'usd', amount: 1 })).statusCode).toBe(403);
    const cases: [unknown, RegExp][] = [
      [{ currency: 'usd', amount: 49 }, /at least \$0\.50 \(the smallest charge in USD\)/],
      [{ currency: 'xyz', amount: 500 }, /currency/],
      [{ currency: 'usd', amount: 4.5 }, /integer/],
      [{ currency: 'usd', amount: 100_000_000 }, /99999999/],
      [{ currency: 'usd', amount: '500' }, /integer|amount/],
      [{ currency: 'usd', amount: 500, extra: 1 }, /extra|additional/i],
    ];
    for (const [body, why] of cases) {
      const res = await setPrice(seller.user, seller.trackId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatch(why);
    }
    expect((await inject('GET', '/api/v1/payments/tracks/not-a-uuid')).statusCode).toBe(404);
  });
});

describe('checkout through the library', () => {
  it('returns the buyer to PUBLIC_URL whatever Host the request names (a forged Host changes nothing)', async () => {
    const buyer = await signupUser(f.t.app, 'forgedhost');
    for (const host of ['evil.example', 'evil.example:8081', '127.0.0.1:1']) {
      const before = f.provider.requests.length;
      const res = await f.t.app.inject({
        method: 'POST',
        url: '/api/v1/payments/checkout',
        headers: { ...buyer.headers, host },
        payload: { track_id: seller.trackId, kind: 'tip', amount: 300 },
      });
      expect(res.statusCode, res.body).toBe(201);
      const form = f.provider.requests.slice(before)[0]!.form;
      const back = `${PUBLIC_URL}/purchases/${res.json().purchase_id}`;
      expect([form.get('success_url'), form.get('cancel_url')]).toEqual([
        `${back}?outcome=success`,
        `${back}?outcome=cancel`,
      ]);
    }
  });

  it('creates a Checkout Session with the request the API reference describes and returns its URL', async () => {
    const buyer = await signupUser(f.t.app, 'buyer');
    const before = f.provider.requests.length;
    const res = await inject('POST', '/api/v1/payments/checkout', buyer, {
      track_id: seller.trackId,
      kind: 'sale',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { purchase_id: purchaseId, url } = res.json();
    const sent = f.provider.requests.slice(before);
    expect(sent).toHaveLength(1);
    const r = sent[0]!;
    expect([r.method, r.path]).toEqual(['POST', '/v1/checkout/sessions']);
    expect(r.headers.authorization).toBe(`Bearer ${TEST_PAYMENT_SECRET_KEY}`);
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(r.headers['stripe-version']).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(r.headers['idempotency-key']).toBe(`checkout-${purchaseId}`);
    expect(Object.fromEntries(r.form)).toEqual({
      mode: 'payment',
      client_reference_id: purchaseId,
      'metadata[purchase_id]': purchaseId,
      'metadata[kind]': 'sale',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '500',
      'line_items[0][price_data][product_data][name]': 'Priced',
      success_url: `${PUBLIC_URL}/purchases/${purchaseId}?outcome=success`,
      cancel_url: `${PUBLIC_URL}/purchases/${purchaseId}?outcome=cancel`,
      expires_at: expect.stringMatching(/^\d+$/),
    });
    // Payable for 40 minutes (the API takes 30 minutes to 24 hours), and the purchase knows when.
    const expiresAt = Number(r.form.get('expires_at'));
    expect(expiresAt - Date.now() / 1000).toBeGreaterThan(39 * 60);
    expect(expiresAt - Date.now() / 1000).toBeLessThanOrEqual(40 * 60);
    expect(url).toMatch(new RegExp(`^${f.provider.origin}/pay/cs_test_`));
    const row = await f.t.connections.prisma.purchase.findUniqueOrThrow({ where: { id: purchaseId } });
    expect([row.status, row.amountMinor, row.currency, row.checkoutSessionId, row.checkoutUrl]).toEqual([
      'pending',
      500,
      'usd',
      [...f.provider.sessions.keys()].at(-1),
      url,
    ]);
    expect(row.checkoutExpiresAt?.getTime()).toBe(expiresAt * 1000);
    const outcome = await inject('GET', `/api/v1/payments/purchases/${purchaseId}`, buyer);
    expect(outcome.json()).toMatchObject({
      status: 'pending',
      kind: 'sale',
      amount: 500,
      track_title: 'Priced',
    });
    const stranger = await signupUser(f.t.app, 'stranger');
    expect((await inject('GET', `/api/v1/payments/purchases/${purchaseId}`, stranger)).statusCode).toBe(404);
  });

  it('refuses what cannot be bought, with a clear 4xx', async () => {
    const buyer = await signupUser(f.t.app, 'refused');
    const post = (who: TestUser | undefined, body: unknown) =>
      inject('POST', '/api/v1/payments/checkout', who, body);
    expect((await post(undefined, { track_id: seller.trackId, kind: 'sale' })).statusCode).toBe(401);
    const fixed = await post(buyer, { track_id: seller.trackId, kind: 'sale', amount: 400 });
    expect(fixed.statusCode).toBe(400);
    expect(fixed.json().detail).toMatch(/fixed at \$5\.00;/);
    expect((await post(seller.user, { track_id: seller.trackId, kind: 'sale' })).statusCode).toBe(409);
    const tipLow = await post(buyer, { track_id: seller.trackId, kind: 'tip', amount: 10 });
    expect(tipLow.statusCode).toBe(400);
    expect(tipLow.json().detail).toMatch(/at least \$0\.50/);
    expect((await post(buyer, { track_id: seller.trackId, kind: 'tip' })).statusCode).toBe(400);
    const plain = await sellerWithTrack(f.t, 'Not for sale');
    expect((await post(buyer, { track_id: plain.trackId, kind: 'sale' })).statusCode).toBe(409);
    expect((await post(buyer, { track_id: plain.trackId, kind: 'tip', amount: 100 })).json().detail).toMatch(
      /tips/,
    );
    await setPrice(plain.user, plain.trackId, { currency: 'eur', amount: 300, pay_what_you_want: true });
    const below = await post(buyer, { track_id: plain.trackId, kind: 'sale', amount: 299 });
    expect(below.statusCode).toBe(400);
    expect(below.json().detail).toMatch(/minimum of €3\.00/);
    const priv = await sellerWithTrack(f.t, 'Private');
    await f.t.connections.prisma.track.update({
      where: { id: priv.trackId },
      data: { visibility: 'private' },
    });
    expect((await post(buyer, { track_id: priv.trackId, kind: 'sale' })).statusCode).toBe(404);
    expect((await post(buyer, { track_id: seller.trackId, kind: 'gift' })).statusCode).toBe(400);
  });

  it('a provider that is down is a 503 with Retry-After; the purchase is marked failed', async () => {
    const buyer = await signupUser(f.t.app, 'outage');
    f.provider.failWith = 500;
    try {
      const res = await inject('POST', '/api/v1/payments/checkout', buyer, {
        track_id: seller.trackId,
        kind: 'sale',
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('60');
      expect(res.body).not.toContain(TEST_PAYMENT_SECRET_KEY);
    } finally {
      f.provider.failWith = undefined;
    }
    const rows = await f.t.connections.prisma.purchase.findMany({ where: { buyerUserId: buyer.id } });
    expect(rows.map((r) => r.status)).toEqual(['failed']);
  });
});

describe('library, downloads and sales', () => {
  it('a paid buyer sees the purchase and downloads the original by a signed, expiring link; others may not', async () => {
    const buyer = await signupUser(f.t.app, 'lib');
    const res = await inject('POST', '/api/v1/payments/checkout', buyer, {
      track_id: seller.trackId,
      kind: 'sale',
    });
    const session = f.provider.sessions.get([...f.provider.sessions.keys()].at(-1)!)!;
    expect(session.client_reference_id).toBe(res.json().purchase_id);
    expect((await inject('GET', `/api/v1/tracks/${seller.trackId}`, buyer)).json().owned).toBe(false);
    await pay(session);
    // Bought: the track page and the price say so (the page offers Download instead of Buy).
    expect((await inject('GET', `/api/v1/tracks/${seller.trackId}`, buyer)).json().owned).toBe(true);
    expect((await inject('GET', `/api/v1/payments/tracks/${seller.trackId}`, buyer)).json().owned).toBe(true);
    const lib = await inject('GET', '/api/v1/payments/library', buyer);
    expect(lib.json().items).toEqual([
      expect.objectContaining({ track_id: seller.trackId, status: 'paid', downloadable: true, amount: 500 }),
    ]);
    const again = await inject('POST', '/api/v1/payments/checkout', buyer, {
      track_id: seller.trackId,
      kind: 'sale',
    });
    expect(again.statusCode).toBe(409);

    const link = await inject('GET', `/api/v1/payments/tracks/${seller.trackId}/download`, buyer);
    expect(link.statusCode).toBe(200);
    const got = await f.t.app.inject({ method: 'GET', url: link.json().url });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(seller.original)).toBe(true);
    expect(got.headers['content-disposition']).toMatch(/^attachment/);
    expect(got.headers['cache-control']).toBe('private, no-store');

    const tampered = (link.json().url as string).replace(/sig=./, 'sig=A');
    expect((await f.t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    const otherTrack = (link.json().url as string).replace(
      seller.trackId,
      '00000000-0000-4000-8000-000000000000',
    );
    expect((await f.t.app.inject({ method: 'GET', url: otherTrack })).statusCode).toBe(403);
    const expired = downloadPath(
      { trackId: seller.trackId, userId: buyer.id, expires: 1000 },
      TEST_SECURE_LINK_SECRET,
    );
    expect((await f.t.app.inject({ method: 'GET', url: expired })).statusCode).toBe(410);
    expect(
      (await f.t.app.inject({ method: 'GET', url: `/api/v1/payments/download/${seller.trackId}` }))
        .statusCode,
    ).toBe(403);

    const stranger = await signupUser(f.t.app, 'nobuy');
    expect(
      (await inject('GET', `/api/v1/payments/tracks/${seller.trackId}/download`, stranger)).statusCode,
    ).toBe(403);
    // A link signed for a non-buyer (forged with the secret) still finds no right to download.
    const forged = downloadPath(
      { trackId: seller.trackId, userId: stranger.id, expires: 4_000_000_000 },
      TEST_SECURE_LINK_SECRET,
    );
    expect((await f.t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
    expect((await inject('GET', `/api/v1/payments/tracks/${seller.trackId}/download`)).statusCode).toBe(401);
    expect(
      (await inject('GET', `/api/v1/payments/tracks/${seller.trackId}/download`, seller.user)).statusCode,
    ).toBe(200);
    await f.t.connections.prisma.user.update({ where: { id: stranger.id }, data: { role: 'admin' } });
    expect((await f.t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(200);
  });

  it("the artist's sales: totals per currency computed from the ledger", async () => {
    const artist = await sellerWithTrack(f.t, 'Totals');
    await setPrice(artist.user, artist.trackId, { currency: 'gbp', amount: 300, tips: true });
    const buyer = await signupUser(f.t.app, 'tot');
    for (const body of [
      { track_id: artist.trackId, kind: 'sale' },
      { track_id: artist.trackId, kind: 'tip', amount: 250 },
    ]) {
      const res = await inject('POST', '/api/v1/payments/checkout', buyer, body);
      await pay(f.provider.sessions.get([...f.provider.sessions.keys()].at(-1)!)!);
      expect(res.statusCode).toBe(201);
    }
    const sales = await inject('GET', '/api/v1/payments/sales', artist.user);
    expect(sales.json().totals).toEqual([
      {
        currency: 'gbp',
        sales: 300,
        sales_count: 1,
        tips: 250,
        tips_count: 1,
        refunds: 0,
        disputes: 0,
        fees: 0,
        net: 550,
      },
    ]);
    expect(sales.json().entries.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([
      ['tip', 250],
      ['sale', 300],
    ]);
    // Each sale and tip, newest first: the track, the buyer, the amount, when; paged.
    const track = { id: artist.trackId, title: expect.any(String) };
    const paid = { status: 'paid', currency: 'gbp', buyer: { handle: buyer.handle }, track };
    expect(sales.json().items).toEqual([
      { ...paid, id: expect.any(String), kind: 'tip', amount: 250, at: expect.any(String) },
      { ...paid, id: expect.any(String), kind: 'purchase', amount: 300, at: expect.any(String) },
    ]);
    const first = (await inject('GET', '/api/v1/payments/sales?limit=1', artist.user)).json();
    expect(first.items.map((i: { kind: string }) => i.kind)).toEqual(['tip']);
    const second = await inject(
      'GET',
      `/api/v1/payments/sales?limit=1&cursor=${first.next_cursor}`,
      artist.user,
    );
    expect(second.json()).toMatchObject({ items: [{ kind: 'purchase', amount: 300 }], next_cursor: null });
    expect((await inject('GET', '/api/v1/payments/sales?cursor=bogus', artist.user)).statusCode).toBe(400);
    const nobody = await signupUser(f.t.app, 'nosales');
    expect((await inject('GET', '/api/v1/payments/sales', nobody)).json()).toEqual({
      totals: [],
      entries: [],
      items: [],
      next_cursor: null,
    });
  });
});

describe('buying needs a verified address when mail is on', () => {
  it('an unverified listener is refused with how to verify; once verified the checkout goes on', async () => {
    const mailOn = await createMusicTestApp(
      { RATE_LIMITS: 'off', ...PAYMENT_ENV, SMTP_HOST: '127.0.0.1', SMTP_PORT: '2525' },
      { paymentApi: { host: '127.0.0.1', port: Number(new URL(f.provider.origin).port), protocol: 'http' } },
    );
    try {
      const artist = await signupUser(mailOn.app, 'unvartist');
      const created = await mailOn.app.inject({
        method: 'POST',
        url: '/api/v1/tracks',
        headers: artist.headers,
        payload: { title: 'Unlisted', visibility: 'unlisted' },
      });
      expect(created.statusCode).toBe(201);
      const buyer = await signupUser(mailOn.app, 'unvbuyer');
      const tip = () =>
        mailOn.app.inject({
          method: 'POST',
          url: '/api/v1/payments/checkout',
          headers: { ...buyer.headers, host: 'music.test:8081' },
          payload: { track_id: created.json().id, kind: 'tip', amount: 300 },
        });
      const refused = await tip();
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toMatch(/^Verify your email address before buying or tipping/);
      await mailOn.connections.prisma.user.update({
        where: { id: buyer.id },
        data: { emailVerifiedAt: new Date() },
      });
      expect((await tip()).statusCode).not.toBe(403);
    } finally {
      await mailOn.close();
    }
  });
});
