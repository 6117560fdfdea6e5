/** What the payment services need from the provider (implemented in repositories/stripe-gateway.ts). */
import type { PaymentRefunds, PurchaseKind } from './payment-types.js';

export interface CheckoutRequest {
  purchaseId: string;
  kind: PurchaseKind;
  productName: string;
  currency: string;
  amountMinor: number;
  successUrl: string;
  cancelUrl: string;
  /** The session's expires_at (whole seconds, 30 minutes to 24 hours ahead at the provider). */
  expiresAt: Date;
  customerEmail?: string;
}

export interface VerifiedEvent {
  id: string;
  type: string;
  payload: unknown;
}

export interface PaymentGateway extends PaymentRefunds {
  createCheckout(request: CheckoutRequest): Promise<{ id: string; url: string }>;
  /** A 400 saying why when no body could make this signature header valid (checked before the body is read). */
  checkSignatureHeader(signature: string | undefined): void;
  /** The event of a webhook body whose signature holds, else a 400 saying why. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): VerifiedEvent;
}
