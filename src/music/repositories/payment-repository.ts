/** Prices, purchases and ledger totals in PostgreSQL, as the payment routes read and write them. */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Visibility } from '../services/visibility-policy.js';
import { randomUUID } from 'node:crypto';
import { openSaleContended } from '../errors/payments.js';
import {
  CLOSED_LOCALLY,
  type LedgerKind,
  type PurchaseKind,
  type PurchaseStatus,
} from '../services/payment-types.js';
import type { PrismaClient } from './prisma.js';

type Tx = Prisma.TransactionClient;

export interface PaymentTrack {
  id: string;
  title: string;
  ownerUserId: string;
  visibility: Visibility;
  /** The current version's original, when there is one. */
  original: { objectKey: string; filename: string; contentType: string } | null;
}

export interface PriceRecord {
  currency: string;
  amountMinor: number | null;
  payWhatYouWant: boolean;
  tips: boolean;
}

export interface PurchaseRecord {
  id: string;
  kind: PurchaseKind;
  status: PurchaseStatus;
  buyerUserId: string | null;
  trackId: string | null;
  trackTitle: string | null;
  artistUserId: string;
  currency: string;
  amountMinor: number;
  createdAt: Date;
  paidAt: Date | null;
}

export interface NewPurchase {
  kind: PurchaseKind;
  buyerUserId: string;
  trackId: string;
  artistUserId: string;
  currency: string;
  amountMinor: number;
}

/** A purchase whose checkout is open (pending) or whose payment is under way (awaiting_payment). */
export interface OpenPurchase {
  id: string;
  status: PurchaseStatus;
  currency: string;
  amountMinor: number;
  /** Null until the session is stored (its maker may still be asking the provider). */
  checkoutUrl: string | null;
  checkoutExpiresAt: Date;
  /** True when this call made it: nobody else had an open sale of the track. */
  created: boolean;
}

interface OpenSqlRow {
  id: string;
  status: PurchaseStatus;
  currency: string;
  amount_minor: number;
  checkout_url: string | null;
  checkout_expires_at: Date | null;
  live?: boolean | null;
}

const OPEN_COLUMNS = Prisma.sql`id::text, status::text AS status, currency, amount_minor, checkout_url, checkout_expires_at`;

const UNPAID_CHECKOUTS = [CLOSED_LOCALLY.expired, CLOSED_LOCALLY.superseded];
/**
 * An open sale whose session was never stored this long after it was made lost its maker (a
 * crash, a failed write): it is closed and made again rather than replayed, since the provider
 * refuses an expiry under 30 minutes ahead.
 */
const MAKER_GRACE_SECONDS = 120;

const toOpen = (r: OpenSqlRow, created: boolean): OpenPurchase => ({
  id: r.id,
  status: r.status,
  currency: r.currency,
  amountMinor: r.amount_minor,
  checkoutUrl: r.checkout_url,
  checkoutExpiresAt: r.checkout_expires_at ?? new Date(0),
  created,
});

/** Inserts a pending purchase; undefined when the buyer's open sale of the track is there already. */
async function insertOpen(tx: Tx, p: NewPurchase, ttlSeconds: number): Promise<OpenPurchase | undefined> {
  // Whole seconds: the provider's expires_at is in seconds, and every caller must send the same one.
  const rows = await tx.$queryRaw<OpenSqlRow[]>(Prisma.sql`
    INSERT INTO purchases (id, kind, status, buyer_user_id, track_id, artist_user_id, currency, amount_minor,
                           checkout_expires_at, updated_at)
    VALUES (${randomUUID()}::uuid, ${p.kind}::"PurchaseKind", 'pending', ${p.buyerUserId}::uuid, ${p.trackId}::uuid,
            ${p.artistUserId}::uuid, ${p.currency}, ${p.amountMinor},
            date_trunc('second', now()) + make_interval(secs => ${ttlSeconds}::int), now())
    ON CONFLICT (buyer_user_id, track_id) WHERE kind = 'sale' AND status IN ('pending', 'awaiting_payment')
    DO NOTHING
    RETURNING ${OPEN_COLUMNS}`);
  return rows[0] ? toOpen(rows[0], true) : undefined;
}

export interface TotalRow {
  currency: string;
  kind: LedgerKind;
  amountMinor: number;
  count: number;
}

export interface LedgerRecord {
  id: bigint;
  purchaseId: string;
  kind: LedgerKind;
  currency: string;
  amountMinor: number;
  createdAt: Date;
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const purchaseSelect = {
  id: true,
  kind: true,
  status: true,
  buyerUserId: true,
  trackId: true,
  artistUserId: true,
  currency: true,
  amountMinor: true,
  createdAt: true,
  paidAt: true,
} as const;

export class PrismaPaymentRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async track(id: string): Promise<PaymentTrack | undefined> {
    if (!UUID.test(id)) return undefined;
    const t = await this.prisma.track.findUnique({
      where: { id },
      select: {
        id: true,
        title: true,
        ownerUserId: true,
        visibility: true,
        currentVersion: {
          select: { asset: { select: { objectKey: true, filename: true, contentType: true } } },
        },
      },
    });
    if (!t) return undefined;
    const asset = t.currentVersion?.asset;
    return {
      id: t.id,
      title: t.title,
      ownerUserId: t.ownerUserId,
      visibility: t.visibility,
      original: asset
        ? { objectKey: asset.objectKey, filename: asset.filename, contentType: asset.contentType }
        : null,
    };
  }

  async price(trackId: string): Promise<PriceRecord | undefined> {
    const p = await this.prisma.trackPrice.findUnique({ where: { trackId } });
    return p
      ? { currency: p.currency, amountMinor: p.amountMinor, payWhatYouWant: p.payWhatYouWant, tips: p.tips }
      : undefined;
  }

  async setPrice(trackId: string, price: PriceRecord): Promise<void> {
    await this.prisma.trackPrice.upsert({ where: { trackId }, create: { trackId, ...price }, update: price });
  }

  /** A tip (any number may be open): a new pending purchase whose session expires in `ttlSeconds`. */
  createPurchase(p: NewPurchase, ttlSeconds: number): Promise<OpenPurchase> {
    return this.prisma.$transaction(async (tx) => {
      const made = await insertOpen(tx, p, ttlSeconds);
      if (!made) throw new Error('a tip is never an open sale');
      return made;
    });
  }

  /**
   * The buyer's one open sale of the track: the one there is (its session still payable, or its
   * payment under way), else a new one. An expired one is closed first. Two calls at the same
   * instant meet in the partial unique index purchases_one_open_sale: the second insert does
   * nothing and reads the first's row.
   */
  openSale(p: NewPurchase, ttlSeconds: number): Promise<OpenPurchase> {
    return this.prisma.$transaction(async (tx) => {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        // Live: payable until its expiry, and its session stored, or its maker still asking the provider.
        const open = await tx.$queryRaw<OpenSqlRow[]>(Prisma.sql`
          SELECT ${OPEN_COLUMNS}, checkout_expires_at > now()
                   AND (checkout_url IS NOT NULL OR created_at > now() - make_interval(secs => ${MAKER_GRACE_SECONDS}::int)) AS live
          FROM purchases
          WHERE buyer_user_id = ${p.buyerUserId}::uuid AND track_id = ${p.trackId}::uuid
            AND kind = 'sale' AND status IN ('pending', 'awaiting_payment')
          FOR UPDATE`);
        const row = open[0];
        if (row && (row.status === 'awaiting_payment' || row.live === true)) return toOpen(row, false);
        if (row)
          await tx.purchase.update({
            where: { id: row.id },
            data: {
              status: 'failed',
              // Without an expiry it was made before sessions were reused: its URL is not stored.
              failure: !row.checkout_expires_at
                ? CLOSED_LOCALLY.superseded
                : row.checkout_url === null
                  ? CLOSED_LOCALLY.notCreated
                  : CLOSED_LOCALLY.expired,
            },
          });
        const made = await insertOpen(tx, p, ttlSeconds);
        if (made) return made;
      }
      throw openSaleContended();
    });
  }

  async setCheckoutSession(purchaseId: string, session: { id: string; url: string }): Promise<void> {
    await this.prisma.purchase.updateMany({
      where: { id: purchaseId, OR: [{ checkoutSessionId: null }, { checkoutSessionId: session.id }] },
      data: { checkoutSessionId: session.id, checkoutUrl: session.url },
    });
  }

  /** A checkout the provider never opened: nothing was charged. */
  async markCheckoutFailed(purchaseId: string): Promise<void> {
    await this.prisma.purchase.updateMany({
      where: { id: purchaseId, status: 'pending' },
      data: { status: 'failed', failure: CLOSED_LOCALLY.notCreated },
    });
  }

  async purchase(id: string): Promise<PurchaseRecord | undefined> {
    if (!UUID.test(id)) return undefined;
    const p = await this.prisma.purchase.findUnique({ where: { id }, select: purchaseSelect });
    if (!p) return undefined;
    return { ...p, trackTitle: await this.title(p.trackId) };
  }

  private async title(trackId: string | null): Promise<string | null> {
    if (trackId === null) return null;
    const t = await this.prisma.track.findUnique({ where: { id: trackId }, select: { title: true } });
    return t?.title ?? null;
  }

  async purchasesOf(buyerUserId: string, limit: number): Promise<PurchaseRecord[]> {
    const rows = await this.prisma.purchase.findMany({
      // Checkouts left unpaid (pending, or closed by us once expired) are not purchases to list.
      where: {
        buyerUserId,
        OR: [
          { status: { notIn: ['pending', 'failed'] } },
          { status: 'failed', OR: [{ failure: null }, { failure: { notIn: UNPAID_CHECKOUTS } }] },
        ],
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
      select: purchaseSelect,
    });
    const ids = [...new Set(rows.map((r) => r.trackId).filter((t): t is string => t !== null))];
    const tracks = await this.prisma.track.findMany({
      where: { id: { in: ids } },
      select: { id: true, title: true },
    });
    const titles = new Map(tracks.map((t) => [t.id, t.title]));
    return rows.map((r) => ({ ...r, trackTitle: r.trackId ? (titles.get(r.trackId) ?? null) : null }));
  }

  /** A sale of this track to this person that was paid and not reversed. */
  async hasBought(buyerUserId: string, trackId: string): Promise<boolean> {
    const n = await this.prisma.purchase.count({
      where: { buyerUserId, trackId, kind: 'sale', status: 'paid' },
    });
    return n > 0;
  }

  /** Sums of the artist's ledger rows per currency and kind: every total is computed from these. */
  async totals(artistUserId: string): Promise<TotalRow[]> {
    const rows = await this.prisma.$queryRaw<
      { currency: string; kind: LedgerKind; amount: bigint; count: bigint }[]
    >(
      Prisma.sql`SELECT currency, kind::text AS kind, SUM(amount_minor)::bigint AS amount, COUNT(*)::bigint AS count
                 FROM ledger_entries WHERE artist_user_id = ${artistUserId}::uuid
                 GROUP BY currency, kind ORDER BY currency, kind`,
    );
    return rows.map((r) => ({
      currency: r.currency,
      kind: r.kind,
      amountMinor: Number(r.amount),
      count: Number(r.count),
    }));
  }

  async recentLedger(artistUserId: string, limit: number): Promise<LedgerRecord[]> {
    return this.prisma.ledgerEntry.findMany({
      where: { artistUserId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
      select: { id: true, purchaseId: true, kind: true, currency: true, amountMinor: true, createdAt: true },
    });
  }

  /**
   * The artist's sales and tips (paid, refunded or disputed), newest payment first, strictly past
   * `cursor` (paid_at, id): each with its track and buyer as they are now (either may be gone).
   */
  salesOf(artistUserId: string, limit: number, cursor?: { createdAt: Date; id: string }): Promise<SaleRow[]> {
    const after = cursor
      ? Prisma.sql`AND (p.paid_at < ${cursor.createdAt} OR (p.paid_at = ${cursor.createdAt} AND p.id < ${cursor.id}::uuid))`
      : Prisma.empty;
    return this.prisma.$queryRaw<SaleRow[]>(Prisma.sql`
      SELECT p.id::text AS id, p.kind::text AS kind, p.status::text AS status, p.currency, p.amount_minor AS "amountMinor",
             p.paid_at AS "paidAt", t.id::text AS "trackId", t.title AS "trackTitle", u.handle AS "buyerHandle"
      FROM purchases p
      LEFT JOIN tracks t ON t.id = p.track_id
      LEFT JOIN users u ON u.id = p.buyer_user_id
      WHERE p.artist_user_id = ${artistUserId}::uuid AND p.paid_at IS NOT NULL
        AND p.status IN ('paid', 'refunded', 'disputed') ${after}
      ORDER BY p.paid_at DESC, p.id DESC
      LIMIT ${limit}`);
  }
}

export interface SaleRow {
  id: string;
  kind: 'sale' | 'tip';
  status: 'paid' | 'refunded' | 'disputed';
  currency: string;
  amountMinor: number;
  paidAt: Date;
  trackId: string | null;
  trackTitle: string | null;
  buyerHandle: string | null;
}

/** The contract the payment services take (tests may pass their own). */
export type PaymentRepository = { [K in keyof PrismaPaymentRepository]: PrismaPaymentRepository[K] };
