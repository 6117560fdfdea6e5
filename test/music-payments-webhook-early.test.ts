/**
 * The webhook refuses what no body can make valid before it reads the body (issue 45: a flood of
 * 255 KB bodies lagged the event loop): the answer arrives while the announced body was never
 * sent. A well-formed, fresh header is read through to the HMAC, and a forged one is refused.
 */
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerEvent, signedDelivery } from './helpers/payment-provider.js';
import { openPaymentsFixture, type PaymentsFixture } from './helpers/payments-fixture.js';

let f: PaymentsFixture;
let port: number;

beforeAll(async () => {
  f = await openPaymentsFixture();
  await f.t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (f.t.app.server.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  await f?.close();
});

/** Sends the headers of a 255 KB body and never the body; the answer the server gives meanwhile. */
function headersOnly(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/payments/webhook',
      headers: { 'content-type': 'application/json', 'content-length': String(255 * 1024), ...headers },
    });
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('webhook refusals before the body', () => {
  it('no Stripe-Signature header, a malformed one, a stale timestamp: 400 with the reason, the body never read', async () => {
    const none = await headersOnly({});
    expect(none.status).toBe(400);
    expect(JSON.parse(none.body).detail).toMatch(/Stripe-Signature header is missing/);
    const garbled = await headersOnly({ 'stripe-signature': 'v1=abc' });
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body).detail).toMatch(/malformed/);
    const stale = await headersOnly({
      'stripe-signature': `t=${Math.floor(Date.now() / 1000) - 600},v1=${'0'.repeat(64)}`,
    });
    expect(stale.status).toBe(400);
    expect(JSON.parse(stale.body).detail).toMatch(/timestamp is outside the tolerance/);
  });

  it('a fresh, well-formed header is read through: a forged signature over the body is refused, a true one accepted', async () => {
    const event = providerEvent('charge.refunded', {});
    const { payload, headers } = signedDelivery(event);
    const t = /t=(\d+)/.exec(headers['stripe-signature']!)![1];
    const forged = await f.t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/webhook',
      payload,
      headers: { ...headers, 'stripe-signature': `t=${t},v1=${'ab'.repeat(32)},v0=ignored` },
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().detail).toMatch(/no signature matches/);
    const signed = await f.t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/webhook',
      payload,
      headers,
    });
    expect(signed.statusCode, signed.body).toBe(200);
  });
});
