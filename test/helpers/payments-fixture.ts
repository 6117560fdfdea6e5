/**
 * A music-api with payments on, its provider played by the local stand-in, and the `payments`
 * queue run by a real BullMQ worker with the worker process's processor; plus a seller with a
 * track whose original is in the store.
 */
import { expect } from 'vitest';
import { Worker } from 'bullmq';
import { paymentJobId } from '../../src/music/jobs/queues.js';
import { PrismaPaymentEventRepository } from '../../src/music/repositories/payment-event-repository.js';
import type { EventPublisher, LiveEvent } from '../../src/music/services/live-events.js';
import { StripeGateway } from '../../src/music/repositories/stripe-gateway.js';
import { PaymentEventProcessor } from '../../src/music/services/payment-events.js';
import { paymentsProcessor } from '../../workers/music/payments.js';
import { openFlowEvents, type FlowEvents } from './flow-events.js';
import { addReadyVersion } from './library-rows.js';
import { createMusicTestApp, type MusicTestApp } from './music-app.js';
import { signupUser, type TestUser } from './music-domain.js';
import { freePort } from './free-port.js';
import {
  PAYMENT_ENV,
  PaymentProviderStandIn,
  TEST_PAYMENT_SECRET_KEY,
  TEST_PAYMENT_WEBHOOK_SECRET,
} from './payment-provider.js';

/** Where Checkout returns the buyer: PUBLIC_URL, whatever Host a request names. */
export const PUBLIC_URL = 'https://music.example.org';

export interface PaymentsFixture {
  t: MusicTestApp;
  provider: PaymentProviderStandIn;
  events: FlowEvents;
  published: { userId: string; event: LiveEvent }[];
  close(): Promise<void>;
}

/** Records what is pushed to people (test/music-live-updates.test.ts covers the Redis feed itself). */
class RecordingPublisher implements EventPublisher {
  readonly published: { userId: string; event: LiveEvent }[] = [];
  publish(userId: string, event: LiveEvent): Promise<void> {
    this.published.push({ userId, event });
    return Promise.resolve();
  }
}

export async function openPaymentsFixture(
  options: { listen?: boolean; webRoot?: string; publicUrl?: string } = {},
): Promise<PaymentsFixture> {
  const provider = new PaymentProviderStandIn();
  const paymentApi = await provider.start();
  const t = await createMusicTestApp(
    { RATE_LIMITS: 'off', ...PAYMENT_ENV, PUBLIC_URL: options.publicUrl ?? PUBLIC_URL },
    { paymentApi, ...(options.webRoot ? { webRoot: options.webRoot } : {}) },
  );
  const events = await openFlowEvents(t.config, ['payments']);
  const publisher = new RecordingPublisher();
  const log = t.app.log;
  const processor = paymentsProcessor({
    payments: new PaymentEventProcessor(new PrismaPaymentEventRepository(t.connections.prisma), publisher, {
      refunds: new StripeGateway({
        secretKey: TEST_PAYMENT_SECRET_KEY,
        webhookSecret: TEST_PAYMENT_WEBHOOK_SECRET,
        api: paymentApi,
      }),
    }),
    log,
  });
  const worker = new Worker('payments', (job, token, signal) => processor(job as never, token, signal), {
    connection: events.bull.duplicate(),
    prefix: t.config.queuePrefix,
    concurrency: 2,
  });
  await worker.waitUntilReady();
  return {
    t,
    provider,
    events,
    published: publisher.published,
    close: async () => {
      await worker.close();
      await events.close();
      await t.close();
      await provider.stop();
    },
  };
}

export interface Seller {
  user: TestUser;
  trackId: string;
  original: Buffer;
}

/** An artist with a public track whose current version's original is stored. */
export async function sellerWithTrack(t: MusicTestApp, title = 'For Sale'): Promise<Seller> {
  const user = await signupUser(t.app, 'artist');
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/tracks',
    headers: user.headers,
    payload: { title },
  });
  const trackId = created.json().id as string;
  const versionId = await addReadyVersion(t.connections, trackId, user.id, { artist: 'A', album: 'B' });
  const version = await t.connections.prisma.trackVersion.findUniqueOrThrow({
    where: { id: versionId },
    include: { asset: true },
  });
  const original = Buffer.from(`fLaC original bytes of ${trackId}`);
  await t.connections.stores.originals.put(version.asset.objectKey, original);
  return { user, trackId, original };
}

/** Sets the seller's price (PUT /api/v1/payments/tracks/:id; the body as that route takes it). */
export async function priceTrack(
  t: MusicTestApp,
  seller: Seller,
  price: Record<string, unknown>,
): Promise<void> {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/payments/tracks/${seller.trackId}`,
    headers: seller.user.headers,
    payload: price,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A price of 7 euros, more if the buyer wants, tips taken (the body PUT /api/v1/payments/tracks/:id takes). */
export const OPEN_PRICE = { currency: 'eur', amount: 700, pay_what_you_want: true, tips: true };

/** The fixture with one seller's track, priced when `price` is given: where the payments API tests start. */
export async function openSellerFixture(
  options: { title?: string; price?: Record<string, unknown> } = {},
): Promise<{ f: PaymentsFixture; seller: Seller }> {
  const f = await openPaymentsFixture();
  try {
    const seller = await sellerWithTrack(f.t, options.title);
    if (options.price) await priceTrack(f.t, seller, options.price);
    return { f, seller };
  } catch (err) {
    await f.close();
    throw err;
  }
}

/** Waits for the payments job of this event to complete (subscribe before delivering). */
export function processed(f: PaymentsFixture, eventId: string): Promise<void> {
  return f.events.completed('payments', paymentJobId(eventId));
}

/** A fixture a browser reaches: PUBLIC_URL is the address it then listens on, so Checkout returns there. */
export async function openBrowserPaymentsFixture(
  webRoot: string,
): Promise<{ f: PaymentsFixture; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const f = await openPaymentsFixture({ webRoot, publicUrl: base });
  await f.t.app.listen({ port, host: '127.0.0.1' });
  f.provider.webhookTarget = base;
  return { f, base };
}
