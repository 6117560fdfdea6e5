/**
 * Payments as listeners and artists use them (docs/payments.md): a track's price and tips,
 * Checkout for a sale or a tip, the buyer's purchases, the artist's totals per currency from the
 * ledger. Off (503 naming the settings) when the provider is not configured.
 */
import type { AuthContext } from '../auth-context.js';
import {
  alreadyBought,
  checkoutOpenAtOtherAmount,
  invalidMoney,
  noOriginal,
  notForSale,
  notTrackManager,
  ownTrack,
  PAYMENT_SETTING_NAMES,
  paymentsNotConfigured,
  paymentTrackNotFound,
  paymentUnderWay,
  purchaseNotFound,
  tipsOff,
} from '../errors/payments.js';
import type {
  PaymentRepository,
  PaymentTrack,
  PriceRecord,
  PurchaseRecord,
} from '../repositories/payment-repository.js';
import { amountProblem, CURRENCIES } from './money.js';
import type { PaymentGateway } from './payment-gateway.js';
import type { PurchaseKind } from './payment-types.js';
import { mayManage, maySee } from './visibility-policy.js';

export interface PriceBody {
  currency: string;
  /** Minor units; null: not for sale. The minimum when pay_what_you_want. */
  amount: number | null;
  pay_what_you_want?: boolean;
  tips?: boolean;
}

export interface CheckoutBody {
  track_id: string;
  kind: PurchaseKind;
  /** Minor units: a tip's amount, or a pay-what-you-want price (at least the minimum). */
  amount?: number;
}

const LIBRARY_LIMIT = 200;
/**
 * How long a Checkout Session stays payable. The provider wants 30 minutes to 24 hours from the
 * session's creation; the expiry is fixed when the purchase is made, and 40 minutes leaves room
 * for the provider call (a second checkout may replay it later with the same expires_at).
 */
export const CHECKOUT_TTL_SECONDS = 40 * 60;
const LEDGER_LIMIT = 100;

export function priceView(trackId: string, price: PriceRecord | undefined) {
  return {
    track_id: trackId,
    currency: price?.currency ?? null,
    amount: price?.amountMinor ?? null,
    for_sale: price !== undefined && price.amountMinor !== null,
    pay_what_you_want: price?.payWhatYouWant ?? false,
    tips: price?.tips ?? false,
  };
}

export function purchaseView(p: PurchaseRecord) {
  return {
    id: p.id,
    kind: p.kind,
    status: p.status,
    track_id: p.trackId,
    track_title: p.trackTitle,
    currency: p.currency,
    amount: p.amountMinor,
    created_at: p.createdAt.toISOString(),
    paid_at: p.paidAt?.toISOString() ?? null,
    downloadable: p.kind === 'sale' && p.status === 'paid' && p.trackId !== null,
  };
}

export class PaymentService {
  constructor(
    private readonly repo: PaymentRepository,
    private readonly gateway: PaymentGateway | undefined,
    /** Checkout returns the buyer here (PUBLIC_URL), never to the request's Host (docs/music-edge.md). */
    private readonly publicUrl: string,
    private readonly publishableKey?: string,
    /** Buying and tipping need a verified address when mail is on (docs/accounts.md). */
    private readonly assertMayPay: (caller: AuthContext) => Promise<void> = () => Promise.resolve(),
  ) {}

  /** The one payment route that answers when payments are off: it says so (and what turns them on). */
  status() {
    return this.gateway
      ? { enabled: true, publishable_key: this.publishableKey ?? null }
      : { enabled: false, settings: [...PAYMENT_SETTING_NAMES] };
  }

  private on(): PaymentGateway {
    if (!this.gateway) throw paymentsNotConfigured();
    return this.gateway;
  }

  private async readable(viewer: AuthContext | undefined, trackId: string): Promise<PaymentTrack> {
    const track = await this.repo.track(trackId);
    if (!track || !maySee('read', viewer, track)) throw paymentTrackNotFound();
    return track;
  }

  async price(viewer: AuthContext | undefined, trackId: string) {
    this.on();
    await this.readable(viewer, trackId);
    return priceView(trackId, await this.repo.price(trackId));
  }

  async setPrice(caller: AuthContext, trackId: string, body: PriceBody) {
    this.on();
    const track = await this.readable(caller, trackId);
    if (!mayManage(caller, track)) throw notTrackManager();
    if (!CURRENCIES.includes(body.currency))
      throw invalidMoney('/currency', `currency must be one of ${CURRENCIES.join(', ')}`);
    if (body.amount !== null) {
      const problem = amountProblem({ currency: body.currency, amountMinor: body.amount });
      if (problem) throw invalidMoney('/amount', problem);
    }
    const price: PriceRecord = {
      currency: body.currency,
      amountMinor: body.amount,
      payWhatYouWant: body.amount !== null && (body.pay_what_you_want ?? false),
      tips: body.tips ?? false,
    };
    await this.repo.setPrice(trackId, price);
    return priceView(trackId, price);
  }

  /** The amount this checkout charges, checked against the price (and the currency's limits). */
  private amountFor(
    body: CheckoutBody,
    price: PriceRecord | undefined,
  ): { currency: string; amountMinor: number } {
    if (body.kind === 'tip') {
      if (!price?.tips) throw tipsOff();
      if (body.amount === undefined) throw invalidMoney('/amount', 'a tip needs an amount in minor units');
      const problem = amountProblem({ currency: price.currency, amountMinor: body.amount });
      if (problem) throw invalidMoney('/amount', problem);
      return { currency: price.currency, amountMinor: body.amount };
    }
    if (!price || price.amountMinor === null) throw notForSale();
    if (!price.payWhatYouWant) {
      if (body.amount !== undefined && body.amount !== price.amountMinor)
        throw invalidMoney('/amount', `the price is fixed at ${price.amountMinor}; leave amount out`);
      return { currency: price.currency, amountMinor: price.amountMinor };
    }
    const amount = body.amount ?? price.amountMinor;
    if (amount < price.amountMinor)
      throw invalidMoney('/amount', `must be at least the artist's minimum of ${price.amountMinor}`);
    const problem = amountProblem({ currency: price.currency, amountMinor: amount });
    if (problem) throw invalidMoney('/amount', problem);
    return { currency: price.currency, amountMinor: amount };
  }

  /**
   * The purchase and its Checkout Session; the player redirects to `url`. A sale the buyer has
   * open already (two tabs, a double click) answers that purchase and its session, never a second.
   */
  async checkout(caller: AuthContext, body: CheckoutBody) {
    const gateway = this.on();
    const track = await this.readable(caller, body.track_id);
    if (track.ownerUserId === caller.userId) throw ownTrack();
    await this.assertMayPay(caller);
    if (body.kind === 'sale') {
      if (!track.original) throw noOriginal();
      if (await this.repo.hasBought(caller.userId, track.id)) throw alreadyBought();
    }
    const money = this.amountFor(body, await this.repo.price(track.id));
    const fresh = {
      kind: body.kind,
      buyerUserId: caller.userId,
      trackId: track.id,
      artistUserId: track.ownerUserId,
      ...money,
    };
    const purchase =
      body.kind === 'sale'
        ? await this.repo.openSale(fresh, CHECKOUT_TTL_SECONDS)
        : await this.repo.createPurchase(fresh, CHECKOUT_TTL_SECONDS);
    if (purchase.status === 'awaiting_payment') throw paymentUnderWay();
    // Another tab chose another amount: never charge one the buyer did not choose now.
    if (body.amount !== undefined && purchase.amountMinor !== money.amountMinor)
      throw checkoutOpenAtOtherAmount(purchase.amountMinor, purchase.currency, purchase.checkoutExpiresAt);
    if (purchase.checkoutUrl !== null) return { purchase_id: purchase.id, url: purchase.checkoutUrl };
    // Made here, or made a moment ago by a request still asking the provider: the same request
    // (the purchase's own amount and expiry) under the same idempotency key is the same session.
    const back = `${this.publicUrl}/purchases/${purchase.id}`;
    let session: { id: string; url: string };
    try {
      session = await gateway.createCheckout({
        purchaseId: purchase.id,
        kind: body.kind,
        productName: body.kind === 'tip' ? `Tip for "${track.title}"` : track.title,
        currency: purchase.currency,
        amountMinor: purchase.amountMinor,
        successUrl: `${back}?outcome=success`,
        cancelUrl: `${back}?outcome=cancel`,
        expiresAt: purchase.checkoutExpiresAt,
      });
    } catch (err) {
      // Only the request that made the purchase gives it up: another may have its session.
      if (purchase.created) await this.repo.markCheckoutFailed(purchase.id);
      throw err;
    }
    await this.repo.setCheckoutSession(purchase.id, session);
    return { purchase_id: purchase.id, url: session.url };
  }

  /** One purchase: for its buyer and admins. */
  async purchase(caller: AuthContext, id: string) {
    this.on();
    const p = await this.repo.purchase(id);
    if (!p || (p.buyerUserId !== caller.userId && caller.role !== 'admin')) throw purchaseNotFound();
    return purchaseView(p);
  }

  async library(caller: AuthContext) {
    this.on();
    const items = await this.repo.purchasesOf(caller.userId, LIBRARY_LIMIT);
    return { items: items.map(purchaseView) };
  }

  /** The caller's earnings: per currency, sums of the ledger's rows by kind, and the latest rows. */
  async sales(caller: AuthContext) {
    this.on();
    const byCurrency = new Map<string, Record<string, number>>();
    for (const row of await this.repo.totals(caller.userId)) {
      const t = byCurrency.get(row.currency) ?? {
        sales: 0,
        sales_count: 0,
        tips: 0,
        tips_count: 0,
        refunds: 0,
        disputes: 0,
        fees: 0,
        net: 0,
      };
      const key = { sale: 'sales', tip: 'tips', refund: 'refunds', dispute: 'disputes', fee: 'fees' }[
        row.kind
      ];
      t[key] = (t[key] ?? 0) + row.amountMinor;
      if (row.kind === 'sale') t.sales_count = row.count;
      if (row.kind === 'tip') t.tips_count = row.count;
      t.net = (t.net ?? 0) + row.amountMinor;
      byCurrency.set(row.currency, t);
    }
    const entries = await this.repo.recentLedger(caller.userId, LEDGER_LIMIT);
    return {
      totals: [...byCurrency].map(([currency, t]) => ({ currency, ...t })),
      entries: entries.map((e) => ({
        id: e.id.toString(),
        purchase_id: e.purchaseId,
        kind: e.kind,
        currency: e.currency,
        amount: e.amountMinor,
        created_at: e.createdAt.toISOString(),
      })),
    };
  }
}
