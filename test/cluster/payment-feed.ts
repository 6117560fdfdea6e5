/**
 * The payment provider's side of scenario 5: signed webhook events delivered through lb while the
 * stores restart, each redelivered on any non-2xx as the provider does, until accepted. Afterwards
 * every event must be recorded and processed once (the `payments` queue's processor marks it).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { providerEvent, signedDelivery } from '../helpers/payment-provider.js';
import { clientFetch } from './clients.js';
import { LB, type Cluster } from './cluster.js';
import { CLIENT_ADDRESSES } from './netns.js';
import { until } from './processes.js';

export class PaymentFeed {
  readonly ids: string[] = [];
  /** Deliveries answered other than 2xx (each redelivered), by status. */
  readonly refused = new Map<string, number>();
  private running = true;
  private loop?: Promise<void>;
  private attempt = 0;

  start(): void {
    this.loop = (async () => {
      while (this.running) {
        await this.deliver();
        await sleep(500);
      }
    })();
  }

  /** One event (a completed checkout of a purchase this platform never made), until accepted. */
  private async deliver(): Promise<void> {
    const event = providerEvent('checkout.session.completed', {
      id: `cs_test_${randomUUID().replaceAll('-', '')}`,
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: randomUUID(),
      amount_total: 100,
      currency: 'eur',
    });
    this.ids.push(event.id as string);
    const { payload, headers } = signedDelivery(event);
    for (;;) {
      // The provider's addresses are few; the last ten client addresses play them.
      const from = CLIENT_ADDRESSES.length - 70 + (this.attempt++ % 10);
      const status = await clientFetch(from, `${LB}/api/v1/payments/webhook`, {
        method: 'POST',
        headers,
        body: payload,
        signal: AbortSignal.timeout(30_000),
      })
        .then(async (res) => (await res.arrayBuffer(), res.status))
        .catch(() => 'error' as const);
      if (status === 200) return;
      this.refused.set(String(status), (this.refused.get(String(status)) ?? 0) + 1);
      // The provider backs off between redeliveries (hours at first in production; 1 s here).
      await sleep(1000);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** Waits until every delivered event is recorded and processed; the count processed. */
  async processed(cluster: Cluster): Promise<number> {
    const count = async (): Promise<number> =>
      Number(
        (
          await cluster.data.query<{ n: string }>(
            'SELECT count(*) AS n FROM payment_events WHERE id = ANY($1) AND processed_at IS NOT NULL',
            'music',
            [this.ids],
          )
        )[0]!.n,
      );
    await until(
      () => `every payment event processed (${this.ids.length})`,
      120,
      async () => (await count()) === this.ids.length,
    ).catch(() => undefined);
    return count();
  }
}
