/** Payments off: without the three settings every payment route answers 503 naming them. */
import { describe, expect, it } from 'vitest';
import { createMusicTestApp } from './helpers/music-app.js';
import { signupUser } from './helpers/music-domain.js';

describe('payments off', () => {
  it('without the three settings every payment route is a 503 naming them', async () => {
    const off = await createMusicTestApp({ RATE_LIMITS: 'off' });
    try {
      const user = await signupUser(off.app, 'off');
      const status = await off.app.inject({ method: 'GET', url: '/api/v1/payments' });
      expect(status.json()).toEqual({
        enabled: false,
        settings: ['PAYMENT_SECRET_KEY', 'PAYMENT_PUBLISHABLE_KEY', 'PAYMENT_WEBHOOK_SECRET'],
      });
      const id = '00000000-0000-4000-8000-000000000000';
      for (const [method, url, payload] of [
        ['GET', `/api/v1/payments/tracks/${id}`],
        ['PUT', `/api/v1/payments/tracks/${id}`, { currency: 'usd', amount: 100 }],
        ['POST', '/api/v1/payments/checkout', { track_id: id, kind: 'sale' }],
        ['GET', `/api/v1/payments/purchases/${id}`],
        ['GET', '/api/v1/payments/library'],
        ['GET', '/api/v1/payments/sales'],
        ['GET', `/api/v1/payments/tracks/${id}/download`],
        ['GET', `/api/v1/payments/download/${id}`],
        ['POST', '/api/v1/payments/webhook', { id: 'evt_1' }],
      ] as const) {
        const res = await off.app.inject({
          method,
          url,
          headers: user.headers,
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(503);
        expect(res.json().detail).toMatch(
          /PAYMENT_SECRET_KEY, PAYMENT_PUBLISHABLE_KEY and PAYMENT_WEBHOOK_SECRET/,
        );
      }
    } finally {
      await off.close();
    }
  });
});
