/** The provider's objects as the stand-in (payment-provider.ts) and the tests build them (Stripe API reference). */
import { randomBytes } from 'node:crypto';

export interface SessionObject {
  id: string;
  object: 'checkout.session';
  mode: 'payment';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string | null;
  payment_intent: string | null;
  /** Present only while the session is open. */
  url: string | null;
  livemode: false;
  created: number;
  expires_at: number;
}

export interface RefundObject {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string;
  reason: string | null;
  metadata: Record<string, string>;
  status: 'succeeded';
  created: number;
}

export const id = (prefix: string): string => `${prefix}_test_${randomBytes(12).toString('hex')}`;
export const now = (): number => Math.floor(Date.now() / 1000);

/** An Event object (API reference: /api/events/object) carrying `object`. */
export function providerEvent(type: string, object: object): Record<string, unknown> {
  return {
    id: id('evt'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: now(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

export function chargeObject(session: SessionObject, amountRefunded: number): Record<string, unknown> {
  return {
    id: `ch_for_${session.payment_intent ?? 'none'}`,
    object: 'charge',
    amount: session.amount_total,
    amount_captured: session.amount_total,
    amount_refunded: amountRefunded,
    currency: session.currency,
    paid: true,
    payment_intent: session.payment_intent,
    refunded: amountRefunded === session.amount_total,
    status: 'succeeded',
    livemode: false,
  };
}

export function disputeObject(session: SessionObject): Record<string, unknown> {
  return {
    id: id('dp'),
    object: 'dispute',
    amount: session.amount_total,
    charge: `ch_for_${session.payment_intent ?? 'none'}`,
    currency: session.currency,
    payment_intent: session.payment_intent,
    reason: 'fraudulent',
    status: 'needs_response',
    livemode: false,
  };
}

/** The session as the provider reports it once paid (or, asynchronously, still unpaid). */
export function paidSession(
  session: SessionObject,
  paymentStatus: 'paid' | 'unpaid' = 'paid',
): SessionObject {
  return {
    ...session,
    status: 'complete',
    payment_status: paymentStatus,
    payment_intent: session.payment_intent ?? id('pi'),
  };
}
