/**
 * The payment provider (Stripe) through its official library: Checkout Sessions out, webhook
 * events in (verified by `webhooks.constructEvent` with the library's timestamp tolerance).
 * `api` points the library elsewhere (its host/port/protocol options): the tests' local stand-in.
 * Neither key ever reaches a log or an error message.
 */
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

/** Why the library refused a signature, in words that name no secret. */
function signatureReason(message: string): string {
  if (/no stripe-signature header/i.test(message)) return 'the Stripe-Signature header is missing';
  if (/unable to extract timestamp and signatures/i.test(message))
    return 'the Stripe-Signature header is malformed (expected t=<timestamp>,v1=<signature>)';
  if (/timestamp outside the tolerance zone/i.test(message))
    return 'its timestamp is outside the tolerance (older than 5 minutes, or from the future): a replay, or a clock far off';
  if (/no signatures found matching/i.test(message))
    return "no signature matches the body with this endpoint's signing secret (a different secret, or the body was changed)";
  return 'it could not be verified';
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

  verifyEvent(rawBody: Buffer, signature: string | undefined): VerifiedEvent {
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
