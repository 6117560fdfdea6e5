/**
 * One open sale per buyer and track (docs/payments.md, "One open sale per track"): checkouts at
 * the same instant answer one purchase and one Checkout Session; an expired or failed one no
 * longer blocks; tips and other buyers are not limited; a sale paid twice is refunded through
 * the provider (the official library against the local stand-in, on a real BullMQ worker).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaPaymentRepository } from '../src/music/repositories/payment-repository.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { chargeObject, providerEvent, type SessionObject } from './helpers/payment-provider.js';
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
  ({ f, seller } = await openSellerFixture({ title: 'Once', price: OPEN_PRICE }));
}, 60_000);
afterAll(() => f?.close());

const checkout = (who: TestUser, body: Record<string, unknown>) =>
  f.t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/checkout',
    headers: { ...who.headers, host: 'music.test:8081' },
    payload: body,
  });

const buy = (who: TestUser) => checkout(who, { track_id: seller.trackId, kind: 'sale' });

async function bought(who: TestUser): Promise<{ purchaseId: string; url: string; session: SessionObject }> {
  const res = await buy(who);
  expect(res.statusCode, res.body).toBe(201);
  const { purchase_id: purchaseId, url } = res.json();
  return { purchaseId, url, session: sessionOf(purchaseId) };
}

const sessionOf = (purchaseId: string): SessionObject => {
  const made = [...f.provider.sessions.values()].filter((s) => s.client_reference_id === purchaseId);
  expect(made).toHaveLength(1);
  return made[0]!;
};

const purchasesOf = (who: TestUser) =>
  f.t.connections.prisma.purchase.findMany({ where: { buyerUserId: who.id }, orderBy: { createdAt: 'asc' } });

/** The clock passes the session's expires_at: the provider expires it, the purchase's expiry is behind us. */
async function expire(purchaseId: string, session: SessionObject, atProvider = true): Promise<void> {
  if (atProvider) f.provider.expire(session.id);
  await f.t.connections.prisma.purchase.update({
    where: { id: purchaseId },
    data: { checkoutExpiresAt: new Date(Date.now() - 1000) },
  });
}

/** A checkout left past its expiry (its session still payable at the provider), then a newer one of the same track. */
async function staleAndNewer(who: TestUser) {
  const old = await bought(who);
  await expire(old.purchaseId, old.session, false);
  return { old, fresh: await bought(who) };
}

async function deliverProcessed(event: Record<string, unknown>): Promise<string | null> {
  const done = processed(f, event.id as string);
  const res = await f.provider.deliverVia(f.t.app, event);
  expect(res.statusCode, res.body).toBe(200);
  await done;
  const row = await f.t.connections.prisma.paymentEvent.findUniqueOrThrow({
    where: { id: event.id as string },
  });
  return row.outcome;
}

const ledger = (purchaseId: string) =>
  f.t.connections.prisma.ledgerEntry.findMany({ where: { purchaseId }, orderBy: { id: 'asc' } });

describe('one open sale per buyer and track', () => {
  it('two checkouts of one track by one buyer at the same instant: one purchase, one session, the same URL', async () => {
    const buyer = await signupUser(f.t.app, 'twotabs');
    const before = f.provider.requests.length;
    const [a, b] = await Promise.all([buy(buyer), buy(buyer)]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([201, 201]);
    expect(b.json()).toEqual(a.json());
    const { purchase_id: purchaseId, url } = a.json();
    expect((await purchasesOf(buyer)).map((p) => [p.id, p.status, p.checkoutUrl])).toEqual([
      [purchaseId, 'pending', url],
    ]);
    expect(sessionOf(purchaseId).url).toBe(url);
    // Whoever asked the provider asked for the same session (same key, same parameters).
    const asked = f.provider.requests.slice(before);
    expect(new Set(asked.map((r) => r.headers['idempotency-key']))).toEqual(
      new Set([`checkout-${purchaseId}`]),
    );
    // A third click later is answered from the stored session, without the provider.
    const third = await buy(buyer);
    expect(third.json()).toEqual({ purchase_id: purchaseId, url });
    expect(f.provider.requests.length).toBe(before + asked.length);
  });

  it('eight checkouts racing in PostgreSQL: one insert wins, the other seven answer its purchase', async () => {
    const buyer = await signupUser(f.t.app, 'race');
    const repo = new PrismaPaymentRepository(f.t.connections.prisma);
    const fresh = {
      kind: 'sale',
      buyerUserId: buyer.id,
      trackId: seller.trackId,
      artistUserId: seller.user.id,
      currency: 'eur',
      amountMinor: 700,
    } as const;
    const opened = await Promise.all(Array.from({ length: 8 }, () => repo.openSale(fresh, 2400)));
    expect(new Set(opened.map((o) => o.id)).size).toBe(1);
    expect(opened.filter((o) => o.created)).toHaveLength(1);
    expect(new Set(opened.map((o) => o.checkoutExpiresAt.getTime())).size).toBe(1);
    expect(await purchasesOf(buyer)).toHaveLength(1);
  });

  it('an expired session or a failed checkout no longer blocks: the next checkout makes a new purchase', async () => {
    const buyer = await signupUser(f.t.app, 'expired');
    const first = await bought(buyer);
    expect(first.session.expires_at).toBe(
      Math.floor((await purchasesOf(buyer))[0]!.checkoutExpiresAt!.getTime() / 1000),
    );
    await expire(first.purchaseId, first.session);
    const second = await bought(buyer);
    expect(second.purchaseId).not.toBe(first.purchaseId);
    expect(second.url).not.toBe(first.url);
    expect((await purchasesOf(buyer)).map((p) => [p.id, p.status, p.failure])).toEqual([
      [first.purchaseId, 'failed', 'the checkout session expired'],
      [second.purchaseId, 'pending', null],
    ]);

    // An expired checkout is not a purchase in the buyer's library.
    const library = await f.t.app.inject({
      method: 'GET',
      url: '/api/v1/payments/library',
      headers: buyer.headers,
    });
    expect(library.json()).toEqual({ items: [] });

    await expire(second.purchaseId, second.session);
    f.provider.failWith = 500;
    try {
      expect((await buy(buyer)).statusCode).toBe(503);
    } finally {
      f.provider.failWith = undefined;
    }
    const third = await bought(buyer);
    expect((await purchasesOf(buyer)).map((p) => p.status)).toEqual([
      'failed',
      'failed',
      'failed',
      'pending',
    ]);
    expect((await purchasesOf(buyer)).at(-1)?.id).toBe(third.purchaseId);
  });

  it("the provider's checkout.session.expired closes the sale at once; the next checkout makes a new purchase", async () => {
    const buyer = await signupUser(f.t.app, 'expiredevent');
    const first = await bought(buyer);
    const expired = f.provider.expire(first.session.id);
    expect(await deliverProcessed(providerEvent('checkout.session.expired', expired))).toBe('expired');
    const second = await bought(buyer);
    expect(second.purchaseId).not.toBe(first.purchaseId);
    expect((await purchasesOf(buyer)).map((p) => [p.id, p.status, p.failure])).toEqual([
      [first.purchaseId, 'failed', 'the checkout session expired'],
      [second.purchaseId, 'pending', null],
    ]);
    // A late or repeated expiry changes nothing once a purchase moved on.
    expect(await deliverProcessed(providerEvent('checkout.session.expired', expired))).toBe(
      'no change: already failed',
    );
  });

  it('tips are not limited: two tips at once are two purchases and two sessions, beside one sale', async () => {
    const buyer = await signupUser(f.t.app, 'tipper');
    const tip = { track_id: seller.trackId, kind: 'tip', amount: 300 };
    const answers = await Promise.all([buy(buyer), checkout(buyer, tip), buy(buyer), checkout(buyer, tip)]);
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const [sale1, tip1, sale2, tip2] = answers.map((r) => r.json<{ purchase_id: string; url: string }>());
    expect(sale2).toEqual(sale1);
    expect(tip1!.purchase_id).not.toBe(tip2!.purchase_id);
    expect(tip1!.url).not.toBe(tip2!.url);
    const rows = await purchasesOf(buyer);
    expect(rows.map((p) => p.kind).sort()).toEqual(['sale', 'tip', 'tip']);
  });

  it('another buyer is unaffected: each buyer has their own open sale of the same track', async () => {
    const [a, b] = await Promise.all([signupUser(f.t.app, 'buyera'), signupUser(f.t.app, 'buyerb')]);
    const [a1, b1, a2, b2] = await Promise.all([buy(a), buy(b), buy(a), buy(b)]);
    expect([a1, b1, a2, b2].map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(a2.json()).toEqual(a1.json());
    expect(b2.json()).toEqual(b1.json());
    expect(b1.json().purchase_id).not.toBe(a1.json().purchase_id);
    expect((await purchasesOf(a)).map((p) => p.id)).toEqual([a1.json().purchase_id]);
    expect((await purchasesOf(b)).map((p) => p.id)).toEqual([b1.json().purchase_id]);
  });

  it('a payment under way (bank debit) is a 409 saying so, not a second session', async () => {
    const buyer = await signupUser(f.t.app, 'underway');
    const { purchaseId, session } = await bought(buyer);
    expect(
      await deliverProcessed(
        providerEvent('checkout.session.completed', f.provider.complete(session, 'unpaid')),
      ),
    ).toBe('awaiting_payment');
    const again = await buy(buyer);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/payment for this track is under way/);
    expect((await purchasesOf(buyer)).map((p) => p.id)).toEqual([purchaseId]);
  });
});

describe('an open sale that cannot be answered as it is', () => {
  it('a second tab that chose another amount is told so (409), never charged the first; the same amount returns to it', async () => {
    const buyer = await signupUser(f.t.app, 'otheramount');
    const first = await checkout(buyer, { track_id: seller.trackId, kind: 'sale', amount: 900 });
    expect(first.statusCode, first.body).toBe(201);
    const other = await checkout(buyer, { track_id: seller.trackId, kind: 'sale', amount: 1200 });
    expect(other.statusCode, other.body).toBe(409);
    expect(other.json().detail).toMatch(/open at 900 \(EUR, minor units\) until .*buy again at that amount/);
    const same = await checkout(buyer, { track_id: seller.trackId, kind: 'sale', amount: 900 });
    expect(same.json()).toEqual(first.json());
    expect((await purchasesOf(buyer)).map((p) => [p.amountMinor, p.status])).toEqual([[900, 'pending']]);
  });

  it('an open sale whose maker never stored its session is closed after the grace and made again', async () => {
    const buyer = await signupUser(f.t.app, 'orphan');
    const repo = new PrismaPaymentRepository(f.t.connections.prisma);
    const orphan = await repo.openSale(
      {
        kind: 'sale',
        buyerUserId: buyer.id,
        trackId: seller.trackId,
        artistUserId: seller.user.id,
        currency: 'eur',
        amountMinor: 700,
      },
      2400,
    );
    expect(orphan).toMatchObject({ created: true, checkoutUrl: null });
    // Its maker died three minutes ago, before asking the provider.
    await f.t.connections.prisma.purchase.update({
      where: { id: orphan.id },
      data: { createdAt: new Date(Date.now() - 180_000) },
    });
    const fresh = await bought(buyer);
    expect(fresh.purchaseId).not.toBe(orphan.id);
    expect((await purchasesOf(buyer)).map((p) => [p.id, p.status, p.failure])).toEqual([
      [orphan.id, 'failed', 'the checkout could not be created'],
      [fresh.purchaseId, 'pending', null],
    ]);
  });
});

describe('a sale paid twice', () => {
  it('an old session paid after a newer one: recorded, never granted twice, refunded in full through the provider', async () => {
    const buyer = await signupUser(f.t.app, 'paidtwice');
    // Paid at the last second; its webhook comes after the buyer started and paid a new checkout.
    const { old, fresh } = await staleAndNewer(buyer);
    expect(fresh.purchaseId).not.toBe(old.purchaseId);
    expect(
      await deliverProcessed(providerEvent('checkout.session.completed', f.provider.complete(fresh.session))),
    ).toBe('paid');
    const oldPaid = f.provider.complete(old.session);
    const before = f.provider.requests.length;
    const outcome = await deliverProcessed(providerEvent('checkout.session.completed', oldPaid));
    expect(outcome).toMatch(
      new RegExp(
        `^refunded: paid twice: the buyer owns the track through purchase ${fresh.purchaseId} \\(re_test_`,
      ),
    );
    const asked = f.provider.requests.slice(before);
    expect(asked.map((r) => [r.path, r.headers['idempotency-key'], Object.fromEntries(r.form)])).toEqual([
      [
        '/v1/refunds',
        `refund-${old.purchaseId}`,
        {
          payment_intent: oldPaid.payment_intent,
          reason: 'duplicate',
          'metadata[purchase_id]': old.purchaseId,
        },
      ],
    ]);
    expect(f.provider.refunds.filter((r) => r.payment_intent === oldPaid.payment_intent)).toEqual([
      expect.objectContaining({ amount: 700, currency: 'eur', status: 'succeeded' }),
    ]);
    const rows = await purchasesOf(buyer);
    expect(rows.map((p) => [p.id, p.status])).toEqual([
      [old.purchaseId, 'failed'],
      [fresh.purchaseId, 'paid'],
    ]);
    expect(rows[0]!.failure).toMatch(/^paid twice: .*; refunded in full \(re_test_/);
    expect(rows[0]!.paymentIntentId).toBe(oldPaid.payment_intent);
    expect(await ledger(old.purchaseId)).toEqual([]);
    expect((await ledger(fresh.purchaseId)).map((r) => [r.kind, r.amountMinor])).toEqual([['sale', 700]]);
    expect(
      f.published.filter(
        (n) => n.event.type === 'purchase.completed' && n.event.data.purchase_id === old.purchaseId,
      ),
    ).toEqual([]);

    // The provider's charge.refunded for that refund, and the same payment reported again: nothing more.
    expect(await deliverProcessed(providerEvent('charge.refunded', chargeObject(oldPaid, 700)))).toMatch(
      /^ignored: purchase .* failed/,
    );
    expect(await deliverProcessed(providerEvent('checkout.session.completed', oldPaid))).toBe(
      'no change: already failed',
    );
    expect(f.provider.refunds.filter((r) => r.payment_intent === oldPaid.payment_intent)).toHaveLength(1);
    expect((await ledger(fresh.purchaseId)).map((r) => [r.kind, r.amountMinor])).toEqual([['sale', 700]]);
  });

  it('two sales of one track to one buyer paid at the same instant: one is granted, the other refunded', async () => {
    const buyer = await signupUser(f.t.app, 'paidatonce');
    const { old, fresh } = await staleAndNewer(buyer);
    const events = [old, fresh].map((p) =>
      providerEvent('checkout.session.completed', f.provider.complete(p.session)),
    );
    const outcomes = await Promise.all(events.map((e) => deliverProcessed(e)));
    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
    expect(outcomes.filter((o) => o?.startsWith('refunded: paid twice'))).toHaveLength(1);
    const rows = await purchasesOf(buyer);
    expect(rows.map((p) => p.status).sort()).toEqual(['failed', 'paid']);
    const sales = await f.t.connections.prisma.ledgerEntry.count({
      where: { purchaseId: { in: rows.map((p) => p.id) } },
    });
    expect(sales).toBe(1);
  });

  it('a session paid just before it expired is honoured when nothing else was paid: granted, and the track counts as bought', async () => {
    const buyer = await signupUser(f.t.app, 'lastsecond');
    const { old, fresh } = await staleAndNewer(buyer);
    expect(
      await deliverProcessed(providerEvent('checkout.session.completed', f.provider.complete(old.session))),
    ).toBe('paid');
    expect((await purchasesOf(buyer)).map((p) => [p.id, p.status])).toEqual([
      [old.purchaseId, 'paid'],
      [fresh.purchaseId, 'pending'],
    ]);
    expect((await ledger(old.purchaseId)).map((r) => [r.kind, r.amountMinor])).toEqual([['sale', 700]]);
    expect((await buy(buyer)).statusCode).toBe(409);
  });
});

describe('a refund the provider refuses', () => {
  it('a sale paid twice and refunded by hand already: recorded as such, not retried, never granted', async () => {
    const buyer = await signupUser(f.t.app, 'byhand');
    const { old, fresh } = await staleAndNewer(buyer);
    expect(
      await deliverProcessed(providerEvent('checkout.session.completed', f.provider.complete(fresh.session))),
    ).toBe('paid');
    const oldPaid = f.provider.complete(old.session);
    // The artist refunded the old payment in the dashboard before its webhook came.
    f.provider.refunds.push({
      id: 're_by_hand',
      object: 'refund',
      amount: oldPaid.amount_total,
      currency: oldPaid.currency,
      payment_intent: oldPaid.payment_intent as string,
      charge: `ch_for_${String(oldPaid.payment_intent)}`,
      reason: 'requested_by_customer',
      metadata: {},
      status: 'succeeded',
      created: Math.floor(Date.now() / 1000),
    });
    const outcome = await deliverProcessed(providerEvent('checkout.session.completed', oldPaid));
    expect(outcome).toMatch(
      /^failed: paid twice: .*; refunded already \(the provider says charge_already_refunded\)$/,
    );
    const rows = await purchasesOf(buyer);
    expect(rows.map((p) => [p.id, p.status])).toEqual([
      [old.purchaseId, 'failed'],
      [fresh.purchaseId, 'paid'],
    ]);
    expect(await ledger(old.purchaseId)).toEqual([]);
    expect(f.provider.refunds.filter((r) => r.payment_intent === oldPaid.payment_intent)).toHaveLength(1);
  });
});
