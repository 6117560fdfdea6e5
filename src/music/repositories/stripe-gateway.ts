/**
 * The payment provider (Stripe) through its official library: Checkout Sessions out, webhook
 * events in (verified by `webhooks.constructEvent` with the library's timestamp tolerance, after
 * a cheap check of the header before the body is read and of the HMAC over the raw bytes).
 * `api` points the library elsewhere (its host/port/protocol options): the tests' local stand-in.
 * Neither key ever reaches a log or an error message.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';
import { badWebhookEvent, badWebhookSignature, paymentProviderUnavailable } from '../errors/payments.js';
import type { CheckoutRequest, PaymentGateway, VerifiedEvent } from '../services/payment-gateway.js';
import type { RefundOutcome } from '../services/payment-types.js';

export interface PaymentApiEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

export interface StripeGatewayOptions {
  secretKey: string;
  webhookSecret: string;
  api?: PaymentApiEndpoint;
  /** Seconds a signature's timestamp may be old (default: the library's, 300). */
  toleranceSeconds?: number;
}

const MISSING = 'the Stripe-Signature header is missing';
const MALFORMED = 'the Stripe-Signature header is malformed (expected t=<timestamp>,v1=<signature>)';
const STALE =
  'its timestamp is outside the tolerance (older than 5 minutes, or from the future): a replay, or a clock far off';
const NO_MATCH =
  "no signature matches the body with this endpoint's signing secret (a different secret, or the body was changed)";
/** The library's default tolerance, seconds. */
const TOLERANCE_SECONDS = 300;

/** Why the library refused a signature, in words that name no secret. */
function signatureReason(message: string): string {
  if (/no stripe-signature header/i.test(message)) return MISSING;
  if (/unable to extract timestamp and signatures/i.test(message)) return MALFORMED;
  if (/timestamp outside the tolerance zone/i.test(message)) return STALE;
  if (/no signatures found matching/i.test(message)) return NO_MATCH;
  return 'it could not be verified';
}

/** The header's timestamp and v1 signatures, as the library reads them (`t=<s>,v1=<hex>,...`). */
function parseSignatureHeader(header: string | undefined): { timestamp: number; signatures: string[] } {
  if (header === undefined || header === '') throw badWebhookSignature(MISSING);
  let timestamp = -1;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const [key, value = ''] = item.split('=');
    if (key === 't') timestamp = parseInt(value, 10);
    else if (key === 'v1') signatures.push(value);
  }
  if (!(timestamp >= 0) || signatures.length === 0) throw badWebhookSignature(MALFORMED);
  return { timestamp, signatures };
}

export class StripeGateway implements PaymentGateway {
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeGatewayOptions) {
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 1,
      timeout: 15_000,
      ...(options.api
        ? { host: options.api.host, port: options.api.port, protocol: options.api.protocol }
        : {}),
    });
  }

  async createCheckout(request: CheckoutRequest): Promise<{ id: string; url: string }> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: request.purchaseId,
          metadata: { purchase_id: request.purchaseId, kind: request.kind },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency,
                unit_amount: request.amountMinor,
                product_data: { name: request.productName },
              },
            },
          ],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          expires_at: Math.floor(request.expiresAt.getTime() / 1000),
          ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
        },
        // One session per purchase, even when the request is retried.
        { idempotencyKey: `checkout-${request.purchaseId}` },
      );
    } catch {
      throw paymentProviderUnavailable();
    }
    if (typeof session.url !== 'string' || session.url === '') throw paymentProviderUnavailable();
    return { id: session.id, url: session.url };
  }

  async refundInFull(paymentIntentId: string, purchaseId: string): Promise<RefundOutcome> {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: paymentIntentId, reason: 'duplicate', metadata: { purchase_id: purchaseId } },
        // One refund per purchase, however often the event is retried.
        { idempotencyKey: `refund-${purchaseId}` },
      );
      return { refunded: true, id: refund.id };
    } catch (err) {
      // A refusal (already refunded by hand, disputed, …) is final: asking again changes nothing.
      if (err instanceof Stripe.errors.StripeInvalidRequestError)
        return { refunded: false, code: (err.code ?? 'invalid_request').slice(0, 60) };
      throw paymentProviderUnavailable();
    }
  }

  /**
   * Refuses, before the body is read, what no body can make valid: no header, a malformed one,
   * or a timestamp past the tolerance (the library checks the same after the body's HMAC).
   */
  checkSignatureHeader(signature: string | undefined): void {
    const { timestamp } = parseSignatureHeader(signature);
    if (Math.floor(Date.now() / 1000) - timestamp > (this.options.toleranceSeconds ?? TOLERANCE_SECONDS))
      throw badWebhookSignature(STALE);
  }

  verifyEvent(rawBody: Buffer, signature: string | undefined): VerifiedEvent {
    this.checkSignatureHeader(signature);
    // One HMAC over the raw bytes first: a forged signature costs no decoding of the body into a
    // string, no copy of it and no JSON parse; the library then verifies again and parses.
    const { timestamp, signatures } = parseSignatureHeader(signature);
    const expected = createHmac('sha256', this.options.webhookSecret)
      .update(`${timestamp}.`)
      .update(rawBody)
      .digest();
    const matches = signatures.some((hex) => {
      const given = Buffer.from(hex, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!matches) throw badWebhookSignature(NO_MATCH);
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signature ?? '',
        this.options.webhookSecret,
        this.options.toleranceSeconds,
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeSignatureVerificationError)
        throw badWebhookSignature(signatureReason(err.message));
      throw badWebhookEvent('the body is not JSON');
    }
    if (typeof event.id !== 'string' || event.id === '' || event.id.length > 255)
      throw badWebhookEvent('it has no usable id');
    if (typeof event.type !== 'string' || event.type.length > 100)
      throw badWebhookEvent('it has no usable type');
    return { id: event.id, type: event.type, payload: event };
  }
}
