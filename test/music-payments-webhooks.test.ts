/**
 * The provider's webhook with real signatures from the library's own test helper: valid, wrong
 * secret, stale timestamp, duplicate, out of order, refund and dispute after the grant, amounts
 * checked; each event processed by the `payments` queue's processor on a real BullMQ worker.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import {
  chargeObject,
  disputeObject,
  paidSession,
  providerEvent,
  signedDelivery,
  TEST_PAYMENT_WEBHOOK_SECRET,
  type SessionObject,
} from './helpers/payment-provider.js';
import {
  openSellerFixture,
  processed,
  OPEN_PRICE,
  type PaymentsFixture,
  type Seller,
} from './helpers/payments-fixture.js';

let f: PaymentsFixture;
let seller: Seller;

beforeAll(async () => {
  ({ f, seller } = await openSellerFixture({ price: OPEN_PRICE }));
}, 60_000);
afterAll(() => f?.close());

async function deliver(
  event: Record<string, unknown>,
  options: { secret?: string; timestamp?: number } = {},
) {
  const { payload, headers } = signedDelivery(event, options);
  return f.t.app.inject({ method: 'POST', url: '/api/v1/payments/webhook', headers, payload });
}

/** Delivers and waits until the payments queue has applied it. */
async function deliverProcessed(event: Record<string, unknown>) {
  const done = processed(f, event.id as string);
  const res = await deliver(event);
  expect(res.statusCode, res.body).toBe(200);
  await done;
  return res;
}

async function checkout(who: TestUser, body: Record<string, unknown>): Promise<SessionObject> {
  const res = await f.t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/checkout',
    headers: { ...who.headers, host: 'music.test:8081' },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  const { purchase_id: purchaseId, url } = res.json();
  const session = [...f.provider.sessions.values()].find((s) => s.client_reference_id === purchaseId);
  expect(session?.url).toBe(url);
  return session!;
}

const purchase = (id: string) => f.t.connections.prisma.purchase.findUniqueOrThrow({ where: { id } });
const ledger = (purchaseId: string) =>
  f.t.connections.prisma.ledgerEntry.findMany({ where: { purchaseId }, orderBy: { id: 'asc' } });

async function canDownload(who: TestUser, trackId: string): Promise<number> {
  const link = await f.t.app.inject({
    method: 'GET',
    url: `/api/v1/payments/tracks/${trackId}/download`,
    headers: who.headers,
  });
  return link.statusCode;
}

describe('payments webhook', () => {
  it('a valid signed checkout.session.completed grants the purchase once, writes one sale row and tells buyer and artist', async () => {
    const who = await signupUser(f.t.app, 'valid');
    const session = await checkout(who, { track_id: seller.trackId, kind: 'sale', amount: 900 });
    expect(await canDownload(who, seller.trackId)).toBe(403);
    const event = providerEvent('checkout.session.completed', paidSession(session));
    const res = await deliverProcessed(event);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    const p = await purchase(session.client_reference_id!);
    expect(p.status).toBe('paid');
    expect((await ledger(p.id)).map((r) => [r.kind, r.amountMinor, r.currency])).toEqual([
      ['sale', 900, 'eur'],
    ]);
    expect(await canDownload(who, seller.trackId)).toBe(200);
    expect(f.published).toContainEqual({
      userId: seller.user.id,
      event: {
        type: 'purchase.completed',
        data: expect.objectContaining({
          purchase_id: p.id,
          amount: 900,
          currency: 'eur',
          buyer: expect.objectContaining({ handle: who.handle }),
        }),
      },
    });
    expect(f.published.filter((n) => n.userId === who.id)).toEqual([]);
    const row = await f.t.connections.prisma.paymentEvent.findUniqueOrThrow({
      where: { id: event.id as string },
    });
    expect(row.processedAt).not.toBeNull();
    expect(row.outcome).toBe('paid');
  });

  it('a signature made with another secret is a 400 that says so, records nothing and names no secret', async () => {
    const event = providerEvent('checkout.session.completed', {});
    const res = await deliver(event, { secret: 'whsec_someone_else' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/no signature matches.*signing secret/);
    expect(res.body).not.toContain(TEST_PAYMENT_WEBHOOK_SECRET);
    expect(res.body).not.toContain('whsec_');
    expect(await f.t.connections.prisma.paymentEvent.count({ where: { id: event.id as string } })).toBe(0);
  });

  it('a stale timestamp (a replay) is a 400 naming the tolerance', async () => {
    const event = providerEvent('checkout.session.completed', {});
    const res = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/timestamp is outside the tolerance/);
  });

  it('a missing or malformed signature header, a changed body: 400 with the reason, never 500', async () => {
    const { payload, headers } = signedDelivery(providerEvent('charge.refunded', {}));
    const none = await f.t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/webhook',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().detail).toMatch(/Stripe-Signature header is missing/);
    const garbled = await f.t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/webhook',
      payload,
      headers: { ...headers, 'stripe-signature': 'not a signature' },
    });
    expect(garbled.json().detail).toMatch(/malformed/);
    const changed = await f.t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/webhook',
      payload: payload.replace('charge.refunded', 'charge.refundes'),
      headers,
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().detail).toMatch(/body was changed/);
    const huge = await f.t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/webhook',
      payload: 'x'.repeat(300 * 1024),
      headers,
    });
    expect(huge.statusCode).toBe(413);
  });

  it('a duplicate delivery is recorded once and changes nothing twice', async () => {
    const who = await signupUser(f.t.app, 'dup');
    const session = await checkout(who, { track_id: seller.trackId, kind: 'tip', amount: 300 });
    const event = providerEvent('checkout.session.completed', paidSession(session));
    await deliverProcessed(event);
    const again = await deliver(event);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    // The same payment reported again under another event id (async success after paid) changes nothing either.
    await deliverProcessed(providerEvent('checkout.session.async_payment_succeeded', paidSession(session)));
    expect((await ledger(session.client_reference_id!)).map((r) => [r.kind, r.amountMinor])).toEqual([
      ['tip', 300],
    ]);
    expect(await f.t.connections.prisma.paymentEvent.count({ where: { id: event.id as string } })).toBe(1);
    expect(
      f.published.filter(
        (p) => p.event.type === 'tip.received' && p.event.data.tip_id === session.client_reference_id,
      ),
    ).toHaveLength(1);
  });

  it('out of order: a refund before its checkout waits (the job retries), then both apply once', async () => {
    const who = await signupUser(f.t.app, 'order');
    const session = paidSession(await checkout(who, { track_id: seller.trackId, kind: 'sale' }));
    const refund = providerEvent('charge.refunded', chargeObject(session, session.amount_total));
    const refundDone = processed(f, refund.id as string);
    expect((await deliver(refund)).statusCode).toBe(200);
    await deliverProcessed(providerEvent('checkout.session.completed', session));
    await refundDone;
    const p = await purchase(session.client_reference_id!);
    expect(p.status).toBe('refunded');
    expect((await ledger(p.id)).map((r) => [r.kind, r.amountMinor])).toEqual([
      ['sale', 700],
      ['refund', -700],
    ]);
    // An async "succeeded" arriving last does not bring the purchase back.
    await deliverProcessed(providerEvent('checkout.session.async_payment_succeeded', session));
    expect((await purchase(p.id)).status).toBe('refunded');
    expect(await canDownload(who, seller.trackId)).toBe(403);
  });

  it('asynchronous payment: completed unpaid waits, async_payment_succeeded grants, a late completed changes nothing', async () => {
    const who = await signupUser(f.t.app, 'async');
    const session = await checkout(who, { track_id: seller.trackId, kind: 'sale' });
    await deliverProcessed(providerEvent('checkout.session.completed', paidSession(session, 'unpaid')));
    expect((await purchase(session.client_reference_id!)).status).toBe('awaiting_payment');
    expect(await canDownload(who, seller.trackId)).toBe(403);
    await deliverProcessed(providerEvent('checkout.session.async_payment_succeeded', paidSession(session)));
    expect((await purchase(session.client_reference_id!)).status).toBe('paid');
    await deliverProcessed(providerEvent('checkout.session.completed', paidSession(session, 'unpaid')));
    expect((await purchase(session.client_reference_id!)).status).toBe('paid');

    const other = await signupUser(f.t.app, 'asyncfail');
    const failing = await checkout(other, { track_id: seller.trackId, kind: 'sale' });
    await deliverProcessed(providerEvent('checkout.session.completed', paidSession(failing, 'unpaid')));
    await deliverProcessed(
      providerEvent('checkout.session.async_payment_failed', paidSession(failing, 'unpaid')),
    );
    expect((await purchase(failing.client_reference_id!)).status).toBe('failed');
    expect(await ledger(failing.client_reference_id!)).toEqual([]);
  });

  it('refund after the grant revokes the download (a link already handed out too) and records the reversal; partial refunds add up', async () => {
    const who = await signupUser(f.t.app, 'refund');
    const session = paidSession(
      await checkout(who, { track_id: seller.trackId, kind: 'sale', amount: 1000 }),
    );
    await deliverProcessed(providerEvent('checkout.session.completed', session));
    const link = await f.t.app.inject({
      method: 'GET',
      url: `/api/v1/payments/tracks/${seller.trackId}/download`,
      headers: who.headers,
    });
    const url = link.json().url as string;
    expect((await f.t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    await deliverProcessed(providerEvent('charge.refunded', chargeObject(session, 400)));
    await deliverProcessed(providerEvent('charge.refunded', chargeObject(session, 1000)));
    // The first refund's event again under a new id: amount_refunded is cumulative, nothing new.
    await deliverProcessed(providerEvent('charge.refunded', chargeObject(session, 400)));
    const rows = await ledger(session.client_reference_id!);
    expect(rows.map((r) => [r.kind, r.amountMinor])).toEqual([
      ['sale', 1000],
      ['refund', -400],
      ['refund', -600],
    ]);
    const used = await f.t.app.inject({ method: 'GET', url });
    expect(used.statusCode).toBe(403);
    expect(used.json().detail).toMatch(/bought it \(and were not refunded\)/);
  });

  it('a dispute revokes and records the reversal once', async () => {
    const who = await signupUser(f.t.app, 'dispute');
    const session = paidSession(await checkout(who, { track_id: seller.trackId, kind: 'sale' }));
    await deliverProcessed(providerEvent('checkout.session.completed', session));
    const dispute = disputeObject(session);
    await deliverProcessed(providerEvent('charge.dispute.created', dispute));
    await deliverProcessed(providerEvent('charge.dispute.created', dispute));
    expect((await purchase(session.client_reference_id!)).status).toBe('disputed');
    expect((await ledger(session.client_reference_id!)).map((r) => [r.kind, r.amountMinor])).toEqual([
      ['sale', 700],
      ['dispute', -700],
    ]);
    expect(await canDownload(who, seller.trackId)).toBe(403);
  });

  it('reversals are capped at the amount paid: a dispute, a refund and a second dispute leave the purchase at 0, the excess a finding', async () => {
    const who = await signupUser(f.t.app, 'reversals');
    const session = paidSession(await checkout(who, { track_id: seller.trackId, kind: 'sale' }));
    const id = session.client_reference_id!;
    await deliverProcessed(providerEvent('checkout.session.completed', session));
    const outcomes: (string | null)[] = [];
    for (const event of [
      providerEvent('charge.dispute.created', disputeObject(session)),
      providerEvent('charge.refunded', chargeObject(session, 700)),
      providerEvent('charge.dispute.created', disputeObject(session)),
    ]) {
      await deliverProcessed(event);
      const row = await f.t.connections.prisma.paymentEvent.findUniqueOrThrow({
        where: { id: event.id as string },
      });
      outcomes.push(row.outcome);
    }
    expect(outcomes).toEqual([
      'disputed 700',
      'refunded 0; finding: 700 more than the purchase has left to reverse was not recorded as money',
      'disputed 0; finding: 700 more than the purchase has left to reverse was not recorded as money',
    ]);
    const rows = await ledger(id);
    expect(rows.map((r) => [r.kind, r.amountMinor])).toEqual([
      ['sale', 700],
      ['dispute', -700],
    ]);
    expect(rows.reduce((sum, r) => sum + r.amountMinor, 0)).toBe(0);
  });

  it('the ledger refuses TRUNCATE as it refuses UPDATE and DELETE', async () => {
    const before = await f.t.connections.prisma.ledgerEntry.count();
    expect(before).toBeGreaterThan(0);
    await expect(f.t.connections.prisma.$executeRawUnsafe('TRUNCATE ledger_entries')).rejects.toThrow(
      /ledger_entries is append-only \(TRUNCATE refused\)/,
    );
    await expect(f.t.connections.prisma.$executeRawUnsafe('DELETE FROM ledger_entries')).rejects.toThrow(
      /append-only \(DELETE refused\)/,
    );
    expect(await f.t.connections.prisma.ledgerEntry.count()).toBe(before);
  });

  it('an amount the provider reports that differs from the purchase is not granted', async () => {
    const who = await signupUser(f.t.app, 'mismatch');
    const session = paidSession(await checkout(who, { track_id: seller.trackId, kind: 'sale' }));
    await deliverProcessed(providerEvent('checkout.session.completed', { ...session, amount_total: 1 }));
    const p = await purchase(session.client_reference_id!);
    expect(p.status).toBe('failed');
    expect(p.failure).toMatch(/amount mismatch: the provider reported 1 eur, the purchase is 700 eur/);
    expect(await ledger(p.id)).toEqual([]);
  });

  it('events payments do not act on are recorded and marked ignored', async () => {
    const event = providerEvent('customer.created', { id: 'cus_1', object: 'customer' });
    await deliverProcessed(event);
    const row = await f.t.connections.prisma.paymentEvent.findUniqueOrThrow({
      where: { id: event.id as string },
    });
    expect(row.outcome).toMatch(/^ignored: customer.created/);
  });

  it('hostile but validly signed bodies: not JSON, no id, a forged purchase id — 400 or ignored, never 500', async () => {
    const lib = new Stripe('sk_test_helper_only');
    const sign = (payload: string) => ({
      'content-type': 'application/json',
      'stripe-signature': lib.webhooks.generateTestHeaderString({
        payload,
        secret: TEST_PAYMENT_WEBHOOK_SECRET,
      }),
    });
    const post = (payload: string) =>
      f.t.app.inject({ method: 'POST', url: '/api/v1/payments/webhook', headers: sign(payload), payload });
    const notJson = await post('not json at all');
    expect([notJson.statusCode, notJson.json().detail]).toEqual([400, expect.stringMatching(/not JSON/)]);
    const noId = await post(
      JSON.stringify({ object: 'event', type: 'charge.refunded', data: { object: {} } }),
    );
    expect([noId.statusCode, noId.json().detail]).toEqual([400, expect.stringMatching(/no usable id/)]);
    const forged = providerEvent('checkout.session.completed', {
      id: 'cs_forged',
      client_reference_id: "x' OR 1=1 --",
      payment_status: 'paid',
      amount_total: 1,
      currency: 'eur',
    });
    await deliverProcessed(forged);
    const row = await f.t.connections.prisma.paymentEvent.findUniqueOrThrow({
      where: { id: forged.id as string },
    });
    expect(row.outcome).toMatch(/^ignored: no purchase/);
  });

  it('the ledger is append-only', async () => {
    await expect(
      f.t.connections.prisma.$executeRawUnsafe('UPDATE ledger_entries SET amount_minor = 1'),
    ).rejects.toThrow(/append-only/);
    await expect(f.t.connections.prisma.$executeRawUnsafe('DELETE FROM ledger_entries')).rejects.toThrow(
      /append-only/,
    );
  });
});
