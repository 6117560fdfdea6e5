/** Provider events and the purchase/ledger writes they cause, in PostgreSQL (one transaction per event). */
import { cutText } from '../../core/text-length.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type {
  PurchaseParties,
  LedgerInsert,
  LedgerKind,
  PaymentEventRepository,
  PaymentEventTx,
  ProcessOnceResult,
  PurchasePatch,
  PurchaseRow,
  StoredEvent,
} from '../services/payment-types.js';
import type { PrismaClient } from './prisma.js';

type Tx = Prisma.TransactionClient;

interface PurchaseSqlRow {
  id: string;
  kind: PurchaseRow['kind'];
  status: PurchaseRow['status'];
  buyer_user_id: string | null;
  track_id: string | null;
  artist_user_id: string;
  currency: string;
  amount_minor: number;
  checkout_session_id: string | null;
  payment_intent_id: string | null;
  failure: string | null;
}

const toPurchase = (r: PurchaseSqlRow): PurchaseRow => ({
  id: r.id,
  kind: r.kind,
  status: r.status,
  buyerUserId: r.buyer_user_id,
  trackId: r.track_id,
  artistUserId: r.artist_user_id,
  currency: r.currency,
  amountMinor: r.amount_minor,
  checkoutSessionId: r.checkout_session_id,
  paymentIntentId: r.payment_intent_id,
  failure: r.failure,
});

const PURCHASE_COLUMNS = Prisma.sql`id::text, kind::text AS kind, status::text AS status, buyer_user_id::text,
  track_id::text, artist_user_id::text, currency, amount_minor, checkout_session_id, payment_intent_id, failure`;

class PrismaPaymentEventTx implements PaymentEventTx {
  constructor(private readonly tx: Tx) {}

  private async one(where: Prisma.Sql): Promise<PurchaseRow | undefined> {
    const rows = await this.tx.$queryRaw<PurchaseSqlRow[]>(
      Prisma.sql`SELECT ${PURCHASE_COLUMNS} FROM purchases WHERE ${where} FOR UPDATE`,
    );
    return rows[0] ? toPurchase(rows[0]) : undefined;
  }

  purchase(id: string): Promise<PurchaseRow | undefined> {
    // A client_reference_id that is not a UUID names no purchase (and must not be a SQL error).
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id))
      return Promise.resolve(undefined);
    return this.one(Prisma.sql`id = ${id}::uuid`);
  }

  purchaseByPaymentIntent(paymentIntentId: string): Promise<PurchaseRow | undefined> {
    return this.one(Prisma.sql`payment_intent_id = ${paymentIntentId}`);
  }

  async otherPaidSale(p: PurchaseRow): Promise<string | undefined> {
    if (p.buyerUserId === null || p.trackId === null) return undefined;
    // Two sales of one track to one buyer paid at once: the second waits here, then sees the first.
    await this.tx.$executeRaw(
      Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`paid-sale:${p.buyerUserId}:${p.trackId}`}, 0))`,
    );
    const other = await this.tx.purchase.findFirst({
      where: {
        buyerUserId: p.buyerUserId,
        trackId: p.trackId,
        kind: 'sale',
        status: 'paid',
        id: { not: p.id },
      },
      select: { id: true },
    });
    return other?.id;
  }

  async updatePurchase(id: string, patch: PurchasePatch): Promise<void> {
    await this.tx.purchase.update({ where: { id }, data: patch });
  }

  async appendLedger(entry: LedgerInsert): Promise<boolean> {
    const inserted = await this.tx.$executeRaw(Prisma.sql`
      INSERT INTO ledger_entries (purchase_id, artist_user_id, kind, currency, amount_minor, reference, event_id)
      VALUES (${entry.purchaseId}::uuid, ${entry.artistUserId}::uuid, ${entry.kind}::"LedgerKind", ${entry.currency},
              ${entry.amountMinor}, ${entry.reference}, ${entry.eventId})
      ON CONFLICT (reference) DO NOTHING`);
    return inserted === 1;
  }

  async parties(p: PurchaseRow): Promise<PurchaseParties> {
    const [track, buyer] = await Promise.all([
      p.trackId ? this.tx.track.findUnique({ where: { id: p.trackId }, select: { title: true } }) : null,
      p.buyerUserId
        ? this.tx.user.findUnique({
            where: { id: p.buyerUserId },
            select: { handle: true, displayName: true },
          })
        : null,
    ]);
    return {
      trackTitle: track?.title ?? null,
      buyer: buyer ? { handle: buyer.handle, display_name: buyer.displayName } : null,
    };
  }

  async ledgerHas(reference: string): Promise<boolean> {
    return (await this.tx.ledgerEntry.count({ where: { reference } })) > 0;
  }

  async ledgerSum(purchaseId: string, kind: LedgerKind): Promise<number> {
    const r = await this.tx.ledgerEntry.aggregate({
      where: { purchaseId, kind },
      _sum: { amountMinor: true },
    });
    return r._sum.amountMinor ?? 0;
  }
}

export class PrismaPaymentEventRepository implements PaymentEventRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async record(event: StoredEvent): Promise<boolean> {
    const inserted = await this.prisma.$executeRaw(Prisma.sql`
      INSERT INTO payment_events (id, type, payload) VALUES (${event.id}, ${event.type}, ${JSON.stringify(event.payload)}::jsonb)
      ON CONFLICT (id) DO NOTHING`);
    return inserted === 1;
  }

  processOnce<T>(
    eventId: string,
    work: (event: StoredEvent, tx: PaymentEventTx) => Promise<{ outcome: string; value: T }>,
  ): Promise<ProcessOnceResult<T>> {
    return this.prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<{ type: string; payload: unknown; processed: boolean }[]>(
          Prisma.sql`SELECT type, payload, processed_at IS NOT NULL AS processed FROM payment_events WHERE id = ${eventId} FOR UPDATE`,
        );
        const row = rows[0];
        if (!row) return { state: 'unknown' } as const;
        if (row.processed) return { state: 'already' } as const;
        const { outcome, value } = await work(
          { id: eventId, type: row.type, payload: row.payload },
          new PrismaPaymentEventTx(tx),
        );
        await tx.paymentEvent.update({
          where: { id: eventId },
          data: { processedAt: new Date(), outcome: cutText(outcome, 500) },
        });
        return { state: 'processed', value } as const;
        // Room for one provider call (a refund of a sale paid twice, 15 s and a retry) inside.
      },
      { timeout: 45_000 },
    );
  }
}
