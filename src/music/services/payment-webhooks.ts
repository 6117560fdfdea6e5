/**
 * The provider's webhook: the signature verified on the raw body, the event recorded once by
 * its id, then handed to the `payments` queue (whose processor applies it). Enqueueing again for
 * a redelivered event is harmless: the job id repeats and the processor skips processed events.
 */
import { paymentQueueUnavailable, paymentsNotConfigured } from '../errors/payments.js';
import type { PaymentQueue } from '../repositories/payment-queue.js';
import type { PaymentGateway } from './payment-gateway.js';
import type { PaymentEventRepository } from './payment-types.js';

export class PaymentWebhooks {
  constructor(
    private readonly gateway: PaymentGateway | undefined,
    private readonly events: PaymentEventRepository,
    private readonly queue: Pick<PaymentQueue, 'enqueue'>,
  ) {}

  /** Before the body is read: payments on, and a signature header some body could match. */
  checkHeader(signature: string | undefined): void {
    if (!this.gateway) throw paymentsNotConfigured();
    this.gateway.checkSignatureHeader(signature);
  }

  async receive(
    rawBody: Buffer,
    signature: string | undefined,
  ): Promise<{ received: true; duplicate: boolean }> {
    if (!this.gateway) throw paymentsNotConfigured();
    const event = this.gateway.verifyEvent(rawBody, signature);
    const fresh = await this.events.record(event);
    try {
      await this.queue.enqueue(event.id);
    } catch {
      // The row is kept; the provider redelivers on a non-2xx and the enqueue is tried again.
      throw paymentQueueUnavailable();
    }
    return { received: true, duplicate: !fresh };
  }
}
