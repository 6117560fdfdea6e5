/** The API's side of the `payments` queue: one job per recorded provider event. */
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { BORROWED_CONNECTION_OPTIONS, closeBorrowed } from './borrowed-connection.js';
import { paymentJobId, type PaymentEventData, type QueueNaming } from '../jobs/queues.js';

/** An event waiting for an earlier one (a refund before its checkout) retries for about an hour. */
export const PAYMENT_JOB_OPTIONS: JobsOptions = {
  attempts: 12,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 5000 },
  removeOnFail: { age: 30 * 24 * 3600, count: 5000 },
};

export interface PaymentQueue {
  enqueue(eventId: string): Promise<void>;
  close(): Promise<void>;
}

export class BullPaymentQueue implements PaymentQueue {
  // Made on the first event: an API that never receives one sends Redis nothing for it.
  private queue: Queue<PaymentEventData> | undefined;

  constructor(
    private readonly connection: Redis,
    private readonly naming: QueueNaming,
  ) {}

  async enqueue(eventId: string): Promise<void> {
    this.queue ??= new Queue<PaymentEventData>('payments', {
      connection: this.connection,
      prefix: this.naming.prefix,
      ...BORROWED_CONNECTION_OPTIONS,
    });
    await this.queue.add('payments', { eventId }, { ...PAYMENT_JOB_OPTIONS, jobId: paymentJobId(eventId) });
  }

  close(): Promise<void> {
    return this.queue ? closeBorrowed([this.queue], this.connection) : Promise.resolve();
  }
}
