/**
 * What each provider event does to a purchase and the ledger (docs/payments.md). Each event is
 * processed once (its row locked and marked); state only moves forward (pending ->
 * awaiting_payment -> paid | failed; paid -> refunded | disputed), so a late or repeated
 * delivery changes nothing; money rows carry unique references, so none is written twice.
 */
import { publishQuietly, type EventPublisher, type LiveEvent } from './live-events.js';
import {
  CLOSED_LOCALLY,
  closedLocally,
  type PaymentEventRepository,
  type PaymentEventTx,
  type PaymentRefunds,
  type PurchaseRow,
  type PurchaseStatus,
  type StoredEvent,
} from './payment-types.js';

/** Thrown when an event refers to what an earlier event (not yet here) creates: the job retries. */
export class PaymentEventNotReady extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentEventNotReady';
  }
}

const RANK: Readonly<Record<PurchaseStatus, number>> = {
  pending: 0,
  awaiting_payment: 1,
  paid: 2,
  failed: 2,
  refunded: 3,
  disputed: 3,
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj, k: string): string | undefined => (typeof o[k] === 'string' ? o[k] : undefined);
const int = (o: Obj, k: string): number | undefined =>
  typeof o[k] === 'number' && Number.isSafeInteger(o[k]) ? o[k] : undefined;

interface Notice {
  userId: string;
  event: LiveEvent;
}

interface Applied {
  outcome: string;
  notices: Notice[];
}

const done = (outcome: string, notices: Notice[] = []): Applied => ({ outcome, notices });

export interface PaymentEventResult {
  eventId: string;
  state: 'processed' | 'already' | 'unknown';
  outcome?: string;
}

export interface PaymentEventOptions {
  onPublishError?: (err: Error) => void;
  now?: () => Date;
  /** Without it a sale paid twice is recorded for an admin to refund by hand. */
  refunds?: PaymentRefunds;
}

export class PaymentEventProcessor {
  private readonly onPublishError: (err: Error) => void;
  private readonly now: () => Date;

  constructor(
    private readonly events: PaymentEventRepository,
    private readonly publisher: EventPublisher,
    private readonly options: PaymentEventOptions = {},
  ) {
    this.onPublishError = options.onPublishError ?? (() => undefined);
    this.now = options.now ?? (() => new Date());
  }

  async process(eventId: string): Promise<PaymentEventResult> {
    const result = await this.events.processOnce(eventId, async (event, tx) => {
      const applied = await this.apply(event, tx);
      return { outcome: applied.outcome, value: applied };
    });
    if (result.state !== 'processed') return { eventId, state: result.state };
    for (const n of result.value.notices)
      await publishQuietly(this.publisher, n.userId, n.event, this.onPublishError);
    return { eventId, state: 'processed', outcome: result.value.outcome };
  }

  private async apply(event: StoredEvent, tx: PaymentEventTx): Promise<Applied> {
    const payload = event.payload;
    const object = isObj(payload) && isObj(payload.data) ? payload.data.object : undefined;
    if (!isObj(object)) return done('ignored: the event has no data.object');
    switch (event.type) {
      case 'checkout.session.completed':
        return this.sessionCompleted(event.id, object, tx);
      case 'checkout.session.async_payment_succeeded':
        return this.sessionSettled(event.id, object, tx, 'paid');
      case 'checkout.session.async_payment_failed':
        return this.sessionSettled(event.id, object, tx, 'failed');
      case 'checkout.session.expired':
        return this.sessionExpired(object, tx);
      case 'charge.refunded':
        return this.chargeRefunded(event.id, object, tx);
      case 'charge.dispute.created':
        return this.disputeCreated(event.id, object, tx);
      default:
        return done(`ignored: ${event.type} is not an event payments act on`);
    }
  }

  private async sessionPurchase(session: Obj, tx: PaymentEventTx): Promise<PurchaseRow | string> {
    const purchaseId = str(session, 'client_reference_id');
    if (purchaseId === undefined) return 'ignored: the session has no client_reference_id';
    const purchase = await tx.purchase(purchaseId);
    if (!purchase) return `ignored: no purchase ${purchaseId}`;
    if (purchase.checkoutSessionId !== null && purchase.checkoutSessionId !== str(session, 'id'))
      return 'ignored: the session is not the one made for this purchase';
    return purchase;
  }

  /** The amount the provider reports against the purchase's; a mismatch is recorded, never granted. */
  private mismatch(purchase: PurchaseRow, session: Obj): string | undefined {
    const amount = int(session, 'amount_total');
    const currency = str(session, 'currency');
    if (amount === purchase.amountMinor && currency === purchase.currency) return undefined;
    return `the provider reported ${amount ?? '?'} ${currency ?? '?'}, the purchase is ${purchase.amountMinor} ${purchase.currency}`;
  }

  private async sessionCompleted(eventId: string, session: Obj, tx: PaymentEventTx): Promise<Applied> {
    const status = str(session, 'payment_status');
    if (status === 'paid') return this.sessionSettled(eventId, session, tx, 'paid');
    const purchase = await this.sessionPurchase(session, tx);
    if (typeof purchase === 'string') return done(purchase);
    if (RANK[purchase.status] >= RANK.awaiting_payment) return done(`no change: already ${purchase.status}`);
    const paymentIntentId = str(session, 'payment_intent');
    await tx.updatePurchase(purchase.id, {
      status: 'awaiting_payment',
      ...(paymentIntentId ? { paymentIntentId } : {}),
    });
    return done('awaiting_payment');
  }

  /** The provider expired the session unpaid: the sale stops blocking a new checkout now. */
  private async sessionExpired(session: Obj, tx: PaymentEventTx): Promise<Applied> {
    const purchase = await this.sessionPurchase(session, tx);
    if (typeof purchase === 'string') return done(purchase);
    if (purchase.status !== 'pending') return done(`no change: already ${purchase.status}`);
    await tx.updatePurchase(purchase.id, { status: 'failed', failure: CLOSED_LOCALLY.expired });
    return done('expired');
  }

  private async sessionSettled(
    eventId: string,
    session: Obj,
    tx: PaymentEventTx,
    to: 'paid' | 'failed',
  ): Promise<Applied> {
    const purchase = await this.sessionPurchase(session, tx);
    if (typeof purchase === 'string') return done(purchase);
    // A purchase we closed (expired, superseded) whose session was paid after all: the money came.
    const late = to === 'paid' && closedLocally(purchase);
    if (RANK[purchase.status] >= RANK.paid && !late) return done(`no change: already ${purchase.status}`);
    const paymentIntentId = str(session, 'payment_intent');
    const intent = paymentIntentId ? { paymentIntentId } : {};
    if (to === 'failed') {
      await tx.updatePurchase(purchase.id, { status: 'failed', ...intent, failure: 'the payment failed' });
      return done('failed');
    }
    const wrong = this.mismatch(purchase, session);
    if (wrong) {
      await tx.updatePurchase(purchase.id, {
        status: 'failed',
        ...intent,
        failure: `amount mismatch: ${wrong}`,
      });
      return done(`failed: amount mismatch: ${wrong}`);
    }
    const owned = purchase.kind === 'sale' ? await tx.otherPaidSale(purchase) : undefined;
    if (owned !== undefined) return this.paidTwice(purchase, owned, paymentIntentId, tx);
    await tx.updatePurchase(purchase.id, { status: 'paid', ...intent, failure: null, paidAt: this.now() });
    await tx.appendLedger({
      purchaseId: purchase.id,
      artistUserId: purchase.artistUserId,
      kind: purchase.kind,
      currency: purchase.currency,
      amountMinor: purchase.amountMinor,
      reference: `${purchase.kind}:${purchase.id}`,
      eventId,
    });
    return done('paid', await this.paidNotices(purchase, tx));
  }

  /**
   * A sale whose buyer owns the track through another paid sale (an old session paid after all):
   * never granted twice; given back in full, or left for an admin when no refund is possible.
   */
  private async paidTwice(
    p: PurchaseRow,
    ownedBy: string,
    paymentIntentId: string | undefined,
    tx: PaymentEventTx,
  ): Promise<Applied> {
    const why = `paid twice: the buyer owns the track through purchase ${ownedBy}`;
    const refunds = this.options.refunds;
    if (!refunds || paymentIntentId === undefined) {
      const failure = `${why}; not refunded: refund it by hand`;
      await tx.updatePurchase(p.id, {
        status: 'failed',
        ...(paymentIntentId ? { paymentIntentId } : {}),
        failure,
      });
      return done(`failed: ${failure}`);
    }
    // Inside the transaction: a provider that cannot be reached rolls the event back and the job
    // retries it (the refund's idempotency key makes a repeat the same refund).
    const refund = await refunds.refundInFull(paymentIntentId, p.id);
    if (!refund.refunded) {
      const failure =
        refund.code === 'charge_already_refunded'
          ? `${why}; refunded already (the provider says ${refund.code})`
          : `${why}; not refunded (the provider refused: ${refund.code}): refund it by hand`;
      await tx.updatePurchase(p.id, { status: 'failed', paymentIntentId, failure });
      return done(`failed: ${failure}`);
    }
    const failure = `${why}; refunded in full (${refund.id})`;
    await tx.updatePurchase(p.id, { status: 'failed', paymentIntentId, failure });
    return done(`refunded: ${why} (${refund.id})`);
  }

  /** The artist hears of a sale or a tip (docs/live-updates.md); the buyer sees the outcome page. */
  private async paidNotices(p: PurchaseRow, tx: PaymentEventTx): Promise<Notice[]> {
    const { trackTitle, buyer } = await tx.parties(p);
    const money = { track_id: p.trackId, amount: p.amountMinor, currency: p.currency };
    if (p.kind === 'sale' && p.trackId)
      return [
        {
          userId: p.artistUserId,
          event: {
            type: 'purchase.completed',
            data: { ...money, track_id: p.trackId, purchase_id: p.id, track_title: trackTitle ?? '', buyer },
          },
        },
      ];
    return [
      {
        userId: p.artistUserId,
        event: { type: 'tip.received', data: { ...money, tip_id: p.id, from: buyer, message: null } },
      },
    ];
  }

  /** The purchase of a charge; an unknown or not yet granted one waits for its checkout event. */
  private async chargePurchase(
    paymentIntentId: string | undefined,
    tx: PaymentEventTx,
  ): Promise<PurchaseRow | string> {
    if (paymentIntentId === undefined) return 'ignored: no payment_intent';
    const purchase = await tx.purchaseByPaymentIntent(paymentIntentId);
    if (!purchase || RANK[purchase.status] < RANK.paid)
      throw new PaymentEventNotReady(
        `no granted purchase for ${paymentIntentId} yet; the checkout event comes first`,
      );
    if (purchase.status === 'failed') return `ignored: purchase ${purchase.id} failed`;
    return purchase;
  }

  private async chargeRefunded(eventId: string, charge: Obj, tx: PaymentEventTx): Promise<Applied> {
    const purchase = await this.chargePurchase(str(charge, 'payment_intent'), tx);
    if (typeof purchase === 'string') return done(purchase);
    const refunded = int(charge, 'amount_refunded');
    const chargeId = str(charge, 'id');
    if (refunded === undefined || chargeId === undefined) return done('ignored: no amount_refunded or id');
    if (str(charge, 'currency') !== purchase.currency)
      return done('ignored: the charge is in another currency');
    if (refunded > purchase.amountMinor)
      return done(`ignored: refunded ${refunded} exceeds the purchase's ${purchase.amountMinor}`);
    // amount_refunded is cumulative: the row is what was not recorded yet.
    const recorded = -(await tx.ledgerSum(purchase.id, 'refund'));
    const delta = refunded - recorded;
    if (delta <= 0) {
      if (purchase.status === 'paid') await tx.updatePurchase(purchase.id, { status: 'refunded' });
      return done('no change: refund already recorded');
    }
    const { amount, excess } = await this.capped(purchase, delta, tx);
    if (amount > 0)
      await tx.appendLedger({
        purchaseId: purchase.id,
        artistUserId: purchase.artistUserId,
        kind: 'refund',
        currency: purchase.currency,
        amountMinor: -amount,
        reference: `refund:${chargeId}:${refunded}`,
        eventId,
      });
    if (purchase.status === 'paid') await tx.updatePurchase(purchase.id, { status: 'refunded' });
    return done(`refunded ${amount}${excessFinding(excess)}`);
  }

  /**
   * A reversal (refund or dispute) as far as the purchase still has money to reverse: together
   * they never exceed what was paid. The rest is a finding for an admin, not a ledger row.
   */
  private async capped(
    purchase: PurchaseRow,
    asked: number,
    tx: PaymentEventTx,
  ): Promise<{ amount: number; excess: number }> {
    const reversed = -(
      (await tx.ledgerSum(purchase.id, 'refund')) + (await tx.ledgerSum(purchase.id, 'dispute'))
    );
    const amount = Math.max(0, Math.min(asked, purchase.amountMinor - reversed));
    return { amount, excess: asked - amount };
  }

  private async disputeCreated(eventId: string, dispute: Obj, tx: PaymentEventTx): Promise<Applied> {
    const purchase = await this.chargePurchase(str(dispute, 'payment_intent'), tx);
    if (typeof purchase === 'string') return done(purchase);
    const amount = int(dispute, 'amount');
    const disputeId = str(dispute, 'id');
    if (amount === undefined || disputeId === undefined || amount <= 0)
      return done('ignored: no amount or id');
    if (str(dispute, 'currency') !== purchase.currency)
      return done('ignored: the dispute is in another currency');
    const reference = `dispute:${disputeId}`;
    if (await tx.ledgerHas(reference)) return done('no change: dispute already recorded');
    const { amount: capped, excess } = await this.capped(purchase, amount, tx);
    const added =
      capped > 0 &&
      (await tx.appendLedger({
        purchaseId: purchase.id,
        artistUserId: purchase.artistUserId,
        kind: 'dispute',
        currency: purchase.currency,
        amountMinor: -capped,
        reference,
        eventId,
      }));
    if (capped > 0 && !added) return done('no change: dispute already recorded');
    if (purchase.status === 'paid') await tx.updatePurchase(purchase.id, { status: 'disputed' });
    return done(`disputed ${capped}${excessFinding(excess)}`);
  }
}

/** The outcome's note of what a reversal asked beyond what was paid (recorded with the event, never as money). */
const excessFinding = (excess: number): string =>
  excess > 0
    ? `; finding: ${excess} more than the purchase has left to reverse was not recorded as money`
    : '';
