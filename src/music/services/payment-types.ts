/** The payment records as the services see them, and the repository contracts they use. */
import type { Money } from './money.js';

export type PurchaseKind = 'sale' | 'tip';
export type PurchaseStatus = 'pending' | 'awaiting_payment' | 'paid' | 'failed' | 'refunded' | 'disputed';
export type LedgerKind = 'sale' | 'tip' | 'refund' | 'dispute' | 'fee';

export interface PurchaseRow extends Money {
  id: string;
  kind: PurchaseKind;
  status: PurchaseStatus;
  buyerUserId: string | null;
  trackId: string | null;
  artistUserId: string;
  checkoutSessionId: string | null;
  paymentIntentId: string | null;
  failure: string | null;
}

/**
 * Why we closed a purchase ourselves while its session may still have been paid (a timeout at
 * creation, an expiry racing the payment): a payment that arrives anyway is honoured, not ignored.
 */
export const CLOSED_LOCALLY = {
  notCreated: 'the checkout could not be created',
  expired: 'the checkout session expired',
  superseded: 'superseded by a newer checkout for the same track',
} as const;

export const closedLocally = (p: Pick<PurchaseRow, 'status' | 'failure'>): boolean =>
  p.status === 'failed' && (Object.values(CLOSED_LOCALLY) as string[]).includes(p.failure ?? '');

/** A refund's outcome: made (its id), or refused by the provider for good (its error code). */
export type RefundOutcome = { refunded: true; id: string } | { refunded: false; code: string };

/** Gives a payment back through the provider (a sale paid twice); idempotent per purchase. */
export interface PaymentRefunds {
  /** Throws (provider unavailable) only when asking again later may succeed. */
  refundInFull(paymentIntentId: string, purchaseId: string): Promise<RefundOutcome>;
}

export interface LedgerInsert extends Money {
  purchaseId: string;
  artistUserId: string;
  kind: LedgerKind;
  /** Unique: the same money movement is written once. */
  reference: string;
  eventId: string;
}

export interface PurchasePatch {
  status?: PurchaseStatus;
  paymentIntentId?: string;
  /** null clears it (a purchase we had closed, paid after all). */
  failure?: string | null;
  paidAt?: Date;
}

/** One event's work, inside the transaction that holds its row (and the purchase) locked. */
export interface PaymentEventTx {
  purchase(id: string): Promise<PurchaseRow | undefined>;
  purchaseByPaymentIntent(paymentIntentId: string): Promise<PurchaseRow | undefined>;
  /** Another sale of this track to this buyer that is paid (and not reversed), if any. */
  otherPaidSale(p: PurchaseRow): Promise<string | undefined>;
  updatePurchase(id: string, patch: PurchasePatch): Promise<void>;
  /** false when a row with this reference exists already. */
  appendLedger(entry: LedgerInsert): Promise<boolean>;
  /** Whether a row with this reference is in the ledger (an event's reversal recorded already). */
  ledgerHas(reference: string): Promise<boolean>;
  /** Sum of the purchase's rows of one kind (signed minor units). */
  ledgerSum(purchaseId: string, kind: LedgerKind): Promise<number>;
  /** What the artist's notice names: the track's title and the buyer (null when anonymous or gone). */
  parties(p: PurchaseRow): Promise<PurchaseParties>;
}

export interface PurchaseParties {
  trackTitle: string | null;
  buyer: { handle: string; display_name: string } | null;
}

export interface StoredEvent {
  id: string;
  type: string;
  payload: unknown;
}

export type ProcessOnceResult<T> = { state: 'processed'; value: T } | { state: 'already' | 'unknown' };

export interface PaymentEventRepository {
  /** Inserts the event unless its id is there; true when it was new. */
  record(event: StoredEvent): Promise<boolean>;
  /**
   * Runs `work` in one transaction with the event's row locked, then marks it processed with
   * the outcome; `already` when it was processed before, `unknown` when no such event was recorded.
   */
  processOnce<T>(
    eventId: string,
    work: (event: StoredEvent, tx: PaymentEventTx) => Promise<{ outcome: string; value: T }>,
  ): Promise<ProcessOnceResult<T>>;
}
