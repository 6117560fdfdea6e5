/** Prices, purchases and ledger totals in PostgreSQL, as the payment routes read and write them. */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Visibility } from '../services/visibility-policy.js';
import type { LedgerKind, PurchaseKind, PurchaseStatus } from '../services/payment-types.js';
import type { PrismaClient } from './prisma.js';

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

  async createPurchase(p: {
    kind: PurchaseKind;
    buyerUserId: string;
    trackId: string;
    artistUserId: string;
    currency: string;
    amountMinor: number;
  }): Promise<string> {
    const row = await this.prisma.purchase.create({ data: p, select: { id: true } });
    return row.id;
  }

  async setCheckoutSession(purchaseId: string, sessionId: string): Promise<void> {
    await this.prisma.purchase.update({ where: { id: purchaseId }, data: { checkoutSessionId: sessionId } });
  }

  /** A checkout the provider never opened: nothing was charged. */
  async markCheckoutFailed(purchaseId: string): Promise<void> {
    await this.prisma.purchase.updateMany({
      where: { id: purchaseId, status: 'pending' },
      data: { status: 'failed', failure: 'the checkout could not be created' },
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
      where: { buyerUserId, status: { not: 'pending' } },
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
}

/** The contract the payment services take (tests may pass their own). */
export type PaymentRepository = { [K in keyof PrismaPaymentRepository]: PrismaPaymentRepository[K] };
